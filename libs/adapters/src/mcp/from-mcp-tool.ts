import { jsonSchema, type ToolDefinition } from '@flotilla/runtime';
import { callMCPTool } from './call-tool.js';
import { formatCallToolResult } from './format-call-tool-result.js';
import type { MCPClientLike, MCPTool } from './mcp-client-adapter.js';

/** Options of {@link fromMCPTool}. */
export interface FromMCPToolOptions {
  /** The name the model sees. @default the tool's native name */
  name?: string;
}

/**
 * Turns one MCP tool into a Flotilla {@link ToolDefinition}: its `inputSchema` is the tool's
 * parameters exactly as the server wrote it (`jsonSchema(inputSchema)`: sent to the model as
 * written, adapted only where a provider requires, and the model's arguments validated against
 * it), and the handler calls the tool on `client` by its native name (whatever `options.name`
 * says) and formats the result ({@link formatCallToolResult}: text stays text, images become
 * image parts, `isError` throws an {@link MCPToolError} the model sees).
 * @throws InvalidJsonSchemaError (from `@flotilla/runtime`) when the `inputSchema` cannot be used
 */
export function fromMCPTool(
  mcpTool: MCPTool,
  client: MCPClientLike,
  options: FromMCPToolOptions = {},
): ToolDefinition {
  const nativeName = mcpTool.name;
  return {
    name: options.name ?? nativeName,
    description: mcpTool.description ?? mcpTool.title ?? `MCP tool: ${nativeName}`,
    parameters: jsonSchema(mcpTool.inputSchema, `MCP tool "${nativeName}"`),
    handler: async (args) =>
      formatCallToolResult(nativeName, await callMCPTool(client, nativeName, toArguments(args))),
  };
}

function toArguments(args: unknown): Record<string, unknown> {
  return typeof args === 'object' && args !== null && !Array.isArray(args)
    ? (args as Record<string, unknown>)
    : {};
}
