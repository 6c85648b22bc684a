/**
 * @flotilla/adapters/mcp — MCP servers as Flotilla tools.
 *
 * Connect an MCP client yourself (the official SDK `Client`, usually inside
 * `equipResource('mcp:<name>', …)`), then in an agent:
 *
 * ```ts
 * const kit = await equipMCP(client, { clientId: 'fs', namespace: 'fs', enableResources: true });
 * kit.inject({ injectResourceTools: true });
 * ```
 *
 * `equipMCP` lists the server's tools (cached per agent invocation and across the fleet),
 * keeps their JSON Schemas as written (`jsonSchema(inputSchema)`) and calls them by native name;
 * images in results reach the model as images. `fromMCPTool` converts a single tool. Sharp edges: `tools` always takes native
 * names (the namespace only changes what the model sees); declared tools that are missing throw.
 */
export { callMCPTool, usesPositionalCallTool } from './call-tool.js';
export { type EquipMCPOptions, equipMCP, type MCPInjectOptions, type MCPKit } from './equip-mcp.js';
export { formatCallToolResult } from './format-call-tool-result.js';
export { type FromMCPToolOptions, fromMCPTool } from './from-mcp-tool.js';
export { DEFAULT_MAX_TOOLS, type ListMCPToolsOptions, listMCPTools } from './list-tools.js';
export type {
  MCPCallToolResponse,
  MCPCallToolResult,
  MCPClientAdapter,
  MCPClientBase,
  MCPClientLike,
  MCPContentBlock,
  MCPEmbeddedResource,
  MCPGetPromptResult,
  MCPListToolsResult,
  MCPMediaContent,
  MCPPositionalClient,
  MCPPrompt,
  MCPPromptMessage,
  MCPResource,
  MCPResourceContents,
  MCPResourceLink,
  MCPServerIdentity,
  MCPTextContent,
  MCPTool,
} from './mcp-client-adapter.js';
export { mcpContentToParts } from './mcp-content-to-parts.js';
export {
  MCPProtocolError,
  type MCPProtocolErrorCode,
  MCPToolError,
  MCPToolsNotFoundError,
} from './mcp-errors.js';
export {
  createPromptsKit,
  type MCPInstructionContent,
  type MCPPromptResult,
  type MCPPromptsKit,
} from './mcp-prompts.js';
export { createResourceTools, formatResourceContents } from './resource-tools.js';
