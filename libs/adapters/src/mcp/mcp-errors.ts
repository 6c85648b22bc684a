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

/**
 * Thrown by an MCP tool's handler when the server answered `isError: true`. The agent's tool
 * loop turns it into an error tool message, so the model reads what went wrong and can retry
 * or change course; `callTool` outside the loop rethrows it.
 */
export class MCPToolError extends FlotillaError {
  static override readonly errorName = 'MCPToolError';
  static override readonly is = errorGuard(this);
  /** The server's native tool name. */
  readonly toolName: string;

  constructor(toolName: string, details: string) {
    super(`MCP tool "${toolName}" reported an error: ${details || '(no details)'}`);
    this.toolName = toolName;
  }
}

/**
 * Thrown by `equipMCP` / {@link listMCPTools} when tools declared in `options.tools` are not all
 * on the server, so the model is never called with an incomplete tool set.
 */
export class MCPToolsNotFoundError extends FlotillaError {
  static override readonly errorName = 'MCPToolsNotFoundError';
  static override readonly is = errorGuard(this);
  /** Declared native names that were not found. */
  readonly missing: string[];
  /** Native names of every tool that was listed before giving up. */
  readonly found: string[];
  /** `max-items`: stopped at `maxItems` listed tools; `exhausted`: the server has no more pages. */
  readonly reason: 'max-items' | 'exhausted';

  constructor(options: {
    missing: string[];
    found: string[];
    reason: 'max-items' | 'exhausted';
    maxItems: number;
  }) {
    const where =
      options.reason === 'max-items'
        ? `within the first ${options.maxItems} tools (maxItems); raise maxItems`
        : 'on the MCP server (all pages read, or autoPaginate is false); check the names';
    super(
      `Declared MCP tools not found ${where}. Missing: ${options.missing.join(', ')}. ` +
        `Found: ${options.found.join(', ') || '(none)'}. Names in \`tools\` are the server's native names, ` +
        'without the namespace.',
    );
    this.missing = options.missing;
    this.found = options.found;
    this.reason = options.reason;
  }
}
