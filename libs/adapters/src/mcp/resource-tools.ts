import { type ToolDefinition, toolContent } from '@flotilla/runtime';
import { z } from 'zod';
import { decodeTextBlob } from './decode-text-blob.js';
import type { MCPClientBase, MCPResourceContents } from './mcp-client-adapter.js';
import { MCPProtocolError } from './mcp-errors.js';

/** JSON-RPC "method not found": the server has no resources capability. */
const METHOD_NOT_FOUND = -32601;

/**
 * The two synthetic resource tools of an MCP kit: `<namespace>_list_resources` (one page,
 * with `cursor` for the next) and `<namespace>_read_resource` (by `uri`); `mcp_` when there is
 * no namespace. Resources are never listed up front: the model pages through them on demand.
 */
export function createResourceTools(client: MCPClientBase, namespace: string | undefined): ToolDefinition[] {
  const prefix = namespace ?? 'mcp';
  return [
    listResourcesTool(client, `${prefix}_list_resources`),
    readResourceTool(client, `${prefix}_read_resource`),
  ];
}

function listResourcesTool(client: MCPClientBase, name: string): ToolDefinition {
  return {
    name,
    description:
      'List resources (files, documents, records) the MCP server offers, one page at a time. ' +
      'Pass the returned nextCursor as cursor to get the next page.',
    parameters: z.object({ cursor: z.string().optional().describe('nextCursor of the previous page') }),
    handler: async (args) => {
      // The runtime validated args against `parameters` before calling.
      const { cursor } = args as { cursor?: string };
      if (!client.listResources) throw missingMethod('listResources');
      try {
        const page = await client.listResources(cursor ? { cursor } : undefined);
        return JSON.stringify({
          resources: page.resources.map(({ uri, name: resourceName, description, mimeType }) => ({
            uri,
            name: resourceName,
            ...(description === undefined ? {} : { description }),
            ...(mimeType === undefined ? {} : { mimeType }),
          })),
          ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
        });
      } catch (error) {
        // A server without resources answers "method not found": that is an empty list.
        if ((error as { code?: unknown }).code === METHOD_NOT_FOUND) return JSON.stringify({ resources: [] });
        throw error;
      }
    },
  };
}

function readResourceTool(client: MCPClientBase, name: string): ToolDefinition {
  return {
    name,
    description: 'Read one resource of the MCP server by its URI (as listed by the list-resources tool).',
    parameters: z.object({ uri: z.string().describe('URI of the resource') }),
    handler: async (args) => {
      const { uri } = args as { uri: string };
      if (!client.readResource) throw missingMethod('readResource');
      const { contents } = await client.readResource({ uri });
      return formatResourceContents(contents);
    },
  };
}

/**
 * Text contents (and text blobs, decoded) are joined by newlines; image blobs become image parts;
 * other blobs become a
 * `[Blob: <uri> (<mimeType>), <n> bytes]` label.
 */
export function formatResourceContents(contents: readonly MCPResourceContents[]) {
  const parts = contents.map((content) => {
    if ('text' in content && typeof content.text === 'string')
      return { type: 'text' as const, text: content.text };
    const blob = 'blob' in content && typeof content.blob === 'string' ? content.blob : '';
    const decoded = decodeTextBlob(blob, content.mimeType);
    if (decoded !== undefined) return { type: 'text' as const, text: decoded };
    if (content.mimeType?.startsWith('image/')) {
      return { type: 'image' as const, image: { url: `data:${content.mimeType};base64,${blob}` } };
    }
    const bytes = Math.floor((blob.length * 3) / 4);
    return {
      type: 'text' as const,
      text: `[Blob: ${content.uri} (${content.mimeType ?? 'binary'}), ${bytes} bytes]`,
    };
  });
  const texts = parts.flatMap((part) => (part.type === 'text' ? [part.text] : []));
  return texts.length === parts.length ? texts.join('\n') : toolContent(parts);
}

function missingMethod(method: string): MCPProtocolError {
  return new MCPProtocolError(
    'missing_method',
    `The MCP client has no ${method}(); resource tools need a client with resources support (the SDK Client has it).`,
  );
}
