/**
 * The shape of an MCP client as the adapter sees it. The official `Client` of
 * `@modelcontextprotocol/sdk` satisfies {@link MCPClientAdapter} as is; other implementations
 * only need `listTools` and `callTool`, plus the optional methods for resources, prompts and
 * server identity. `callTool` may also take the positional form `(name, args)`
 * ({@link MCPPositionalClient}); see {@link callMCPTool} for how the form is chosen.
 */

/** An MCP tool as `tools/list` describes it; `inputSchema` is the server's JSON Schema. */
export interface MCPTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: { type?: string; [keyword: string]: unknown };
  annotations?: { [hint: string]: unknown };
}

/** One page of `tools/list`. */
export interface MCPListToolsResult {
  tools: MCPTool[];
  nextCursor?: string;
}

/** Text content. */
export interface MCPTextContent {
  type: 'text';
  text: string;
}
/** Base64 media content (`image` or `audio`). */
export interface MCPMediaContent {
  type: 'image' | 'audio';
  data: string;
  mimeType: string;
}
/** A resource's contents embedded in a result: text or a base64 blob. */
export type MCPResourceContents =
  | { uri: string; mimeType?: string; text: string }
  | { uri: string; mimeType?: string; blob: string };
/** A resource embedded in a result. */
export interface MCPEmbeddedResource {
  type: 'resource';
  resource: MCPResourceContents;
}
/** A link to a resource the client may read later. */
export interface MCPResourceLink {
  type: 'resource_link';
  uri: string;
  name: string;
  description?: string;
  mimeType?: string;
}
/** Any content block of a tool result or a prompt message. */
export type MCPContentBlock =
  | MCPTextContent
  | MCPMediaContent
  | MCPEmbeddedResource
  | MCPResourceLink
  | { type: string; [field: string]: unknown };

/** The result of `tools/call`; `isError: true` means the tool failed and `content` says why. */
export interface MCPCallToolResult {
  content: MCPContentBlock[];
  isError?: boolean;
  structuredContent?: { [field: string]: unknown };
}

/** What `callTool` may resolve to: a result, or the pre-2024-11 `{ toolResult }` form. */
export type MCPCallToolResponse = MCPCallToolResult | { toolResult: unknown };

/** A resource as `resources/list` describes it. */
export interface MCPResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** A prompt as `prompts/list` describes it. */
export interface MCPPrompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: { name: string; description?: string; required?: boolean }[];
}

/** One message of `prompts/get`. */
export interface MCPPromptMessage {
  role: 'user' | 'assistant';
  content: MCPContentBlock;
}

/** The result of `prompts/get`. */
export interface MCPGetPromptResult {
  description?: string;
  messages: MCPPromptMessage[];
}

/** Name and version the server announced at initialization. */
export interface MCPServerIdentity {
  name: string;
  version: string;
}

/** The methods every client shape shares. */
export interface MCPClientBase {
  listTools(params?: { cursor?: string }): Promise<MCPListToolsResult>;
  listResources?(params?: { cursor?: string }): Promise<{ resources: MCPResource[]; nextCursor?: string }>;
  readResource?(params: { uri: string }): Promise<{ contents: MCPResourceContents[] }>;
  listPrompts?(params?: { cursor?: string }): Promise<{ prompts: MCPPrompt[]; nextCursor?: string }>;
  getPrompt?(params: { name: string; arguments?: Record<string, string> }): Promise<MCPGetPromptResult>;
  /** Identifies the server for the fleet-wide `tools/list` cache. */
  getServerVersion?(): MCPServerIdentity | undefined;
}

/** An MCP client with the official SDK's `callTool({ name, arguments })` form. */
export interface MCPClientAdapter extends MCPClientBase {
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<MCPCallToolResponse>;
}

/** An MCP client whose `callTool(name, args)` takes positional arguments (both declared). */
export interface MCPPositionalClient extends MCPClientBase {
  callTool(name: string, args: Record<string, unknown>): Promise<MCPCallToolResponse>;
}

/** Any client the adapter accepts. */
export type MCPClientLike = MCPClientAdapter | MCPPositionalClient;
