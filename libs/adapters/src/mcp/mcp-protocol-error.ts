import { errorGuard, FlotillaError } from '@flotilla/ir';

/** What part of the MCP contract a client or server broke. */
export type MCPProtocolErrorCode =
  | 'invalid_tool'
  | 'duplicate_tool'
  | 'cursor_cycle'
  | 'invalid_result'
  | 'missing_method';

/**
 * Thrown when an MCP client or server answers outside the protocol: a tool without a name, the
 * same tool twice, a pagination cursor that repeats, a `callTool` result without `content`, or
 * a client that lacks a method the adapter was asked to use.
 */
export class MCPProtocolError extends FlotillaError {
  static override readonly errorName = 'MCPProtocolError';
  static override readonly is = errorGuard(this);
  readonly code: MCPProtocolErrorCode;

  constructor(code: MCPProtocolErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}
