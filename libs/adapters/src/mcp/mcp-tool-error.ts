import { errorGuard, FlotillaError } from '@flotilla/ir';

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
