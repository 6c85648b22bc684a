/**
 * An MCP server in the test process, built on the official SDK's low-level `Server` and linked to
 * an SDK `Client` through `InMemoryTransport`. It serves a fixed tool list in pages, counts its
 * `tools/list` requests, records tool calls, and serves paged resources and prompts, so tests can
 * check pagination, caching and edge cases the reference servers do not have.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';

export interface InMemoryMCPServerOptions {
  /** Tool names (each gets a `{ text: string }` schema) or full tool definitions. */
  tools: (string | Tool)[];
  /** Tools per `tools/list` page. @default all on one page */
  pageSize?: number;
  /** Resources served 3 per page, `mem://item/<i>`. @default 0 */
  resourceCount?: number;
  /** Server name and version announced at initialization. */
  identity?: { name: string; version: string };
  /** Answers `tools/call`; @default echoes `{ tool, args }` as text. */
  onCall?: (name: string, args: Record<string, unknown>) => CallToolResult;
}

export interface InMemoryMCPServer {
  client: Client;
  /** How many `tools/list` requests the server answered. */
  listRequests(): number;
  /** Every `tools/call` the server answered, in order. */
  calls: { name: string; args: Record<string, unknown> }[];
  close(): Promise<void>;
}

const RESOURCE_PAGE_SIZE = 3;

export async function startInMemoryMCPServer(options: InMemoryMCPServerOptions): Promise<InMemoryMCPServer> {
  const identity = options.identity ?? { name: 'in-memory-test-server', version: '1.0.0' };
  const server = new Server(identity, { capabilities: { tools: {}, resources: {}, prompts: {} } });
  const tools = options.tools.map((tool) => (typeof tool === 'string' ? textTool(tool) : tool));
  const pageSize = options.pageSize ?? Math.max(tools.length, 1);
  let listRequests = 0;
  const calls: InMemoryMCPServer['calls'] = [];

  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    listRequests += 1;
    const start = Number(request.params?.cursor ?? 0);
    const end = start + pageSize;
    return end < tools.length
      ? { tools: tools.slice(start, end), nextCursor: String(end) }
      : { tools: tools.slice(start) };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const args = request.params.arguments ?? {};
    calls.push({ name: request.params.name, args });
    if (options.onCall) return options.onCall(request.params.name, args);
    return { content: [{ type: 'text', text: JSON.stringify({ tool: request.params.name, args }) }] };
  });
  const resourceCount = options.resourceCount ?? 0;
  server.setRequestHandler(ListResourcesRequestSchema, async (request) => {
    const start = Number(request.params?.cursor ?? 0);
    const end = Math.min(start + RESOURCE_PAGE_SIZE, resourceCount);
    const resources = Array.from({ length: end - start }, (_, offset) => ({
      uri: `mem://item/${start + offset}`,
      name: `item-${start + offset}`,
      mimeType: 'text/plain',
    }));
    return end < resourceCount ? { resources, nextCursor: String(end) } : { resources };
  });
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => ({
    contents: [{ uri: request.params.uri, mimeType: 'text/plain', text: `contents of ${request.params.uri}` }],
  }));
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: [{ name: 'review', description: 'Review a file', arguments: [{ name: 'file', required: true }] }],
  }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => ({
    messages: [
      { role: 'user', content: { type: 'text', text: `Review ${request.params.arguments?.file ?? '?'}` } },
      { role: 'user', content: { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' } },
    ],
  }));

  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'flotilla-test', version: '1.0.0' });
  await client.connect(clientTransport);
  return {
    client,
    listRequests: () => listRequests,
    calls,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

function textTool(name: string): Tool {
  return {
    name,
    description: `Test tool ${name}`,
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  };
}
