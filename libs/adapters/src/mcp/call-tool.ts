import type {
  MCPCallToolResult,
  MCPClientAdapter,
  MCPClientLike,
  MCPPositionalClient,
} from './mcp-client-adapter.js';
import { MCPProtocolError } from './mcp-errors.js';

/**
 * Calls the MCP tool `name` (the server's native name) exactly once and returns its result.
 *
 * Clients come in two shapes: the official SDK's `callTool({ name, arguments })` and facades
 * with `callTool(name, args)`. Trying one form and falling back to the other could run a tool
 * twice, so the form is decided before calling: a `callTool` that declares two or more
 * parameters while the client is not an SDK `Client` (which declares `(params, resultSchema?,
 * options?)` and exposes `request()`) takes positional arguments; everything else takes the
 * object form.
 *
 * A pre-2024-11 `{ toolResult }` answer is turned into a text result.
 *
 * @throws {MCPProtocolError} (`invalid_result`) when the answer has no `content` array; errors
 * of the client itself (transport, timeout, unknown tool) propagate unchanged.
 */
export async function callMCPTool(
  client: MCPClientLike,
  name: string,
  args: Record<string, unknown>,
): Promise<MCPCallToolResult> {
  const response: unknown = usesPositionalCallTool(client)
    ? await (client as MCPPositionalClient).callTool(name, args)
    : await (client as MCPClientAdapter).callTool({ name, arguments: args });
  return toCallToolResult(name, response);
}

/** Whether `client.callTool` takes `(name, args)` rather than `({ name, arguments })`. */
export function usesPositionalCallTool(client: MCPClientLike): boolean {
  const isSdkClient = typeof (client as { request?: unknown }).request === 'function';
  return !isSdkClient && client.callTool.length >= 2;
}

function toCallToolResult(name: string, response: unknown): MCPCallToolResult {
  if (typeof response === 'object' && response !== null) {
    const candidate = response as Partial<MCPCallToolResult> & { toolResult?: unknown };
    if (Array.isArray(candidate.content)) return candidate as MCPCallToolResult;
    if ('toolResult' in candidate) {
      const text =
        typeof candidate.toolResult === 'string'
          ? candidate.toolResult
          : JSON.stringify(candidate.toolResult);
      return { content: [{ type: 'text', text }] };
    }
  }
  throw new MCPProtocolError(
    'invalid_result',
    `callTool("${name}") returned ${JSON.stringify(response)}, which is not an MCP tool result ({ content: [...] }).`,
  );
}
