import type { ContentPart } from '@flotilla/runtime';
import { decodeTextBlob } from './decode-text-blob.js';
import type { MCPContentBlock, MCPResourceContents } from './mcp-client-adapter.js';

/**
 * Turns MCP content blocks (of a tool result or a prompt message) into content parts the model
 * can see:
 * - `text` → text;
 * - `image` → an image part with a `data:<mimeType>;base64,…` URL;
 * - `resource` → its text (text blobs decoded), or `[Resource blob: <uri> (<mimeType>)]` for
 *   binary contents;
 * - `resource_link` → `[Resource link: <uri> …]`, so the model can ask to read it;
 * - `audio` → `[Audio: <mimeType>, <n> bytes not shown]`: content parts have no audio variant,
 *   and the base64 would only flood the context;
 * - anything else → its JSON as text.
 */
export function mcpContentToParts(blocks: readonly MCPContentBlock[]): ContentPart[] {
  return blocks.map(blockToPart);
}

function blockToPart(block: MCPContentBlock): ContentPart {
  const fields = block as Record<string, unknown>;
  switch (block.type) {
    case 'text':
      if (typeof fields.text === 'string') return { type: 'text', text: fields.text };
      break;
    case 'image':
      if (typeof fields.data === 'string') {
        const mimeType = typeof fields.mimeType === 'string' ? fields.mimeType : 'image/png';
        return { type: 'image', image: { url: `data:${mimeType};base64,${fields.data}` } };
      }
      break;
    case 'audio':
      return { type: 'text', text: audioLabel(fields) };
    case 'resource':
      if (typeof fields.resource === 'object' && fields.resource !== null) {
        return { type: 'text', text: resourceText(fields.resource as MCPResourceContents) };
      }
      break;
    case 'resource_link':
      return { type: 'text', text: resourceLinkLabel(fields) };
  }
  return { type: 'text', text: JSON.stringify(block) };
}

/** The text of embedded resource contents, or a label for binary contents. */
function resourceText(resource: MCPResourceContents): string {
  if ('text' in resource && typeof resource.text === 'string') return resource.text;
  const decoded = 'blob' in resource ? decodeTextBlob(resource.blob, resource.mimeType) : undefined;
  if (decoded !== undefined) return decoded;
  return `[Resource blob: ${resource.uri}${resource.mimeType ? ` (${resource.mimeType})` : ''}]`;
}

function audioLabel(fields: Record<string, unknown>): string {
  const mimeType = typeof fields.mimeType === 'string' ? fields.mimeType : 'audio';
  const bytes = typeof fields.data === 'string' ? Math.floor((fields.data.length * 3) / 4) : 0;
  return `[Audio: ${mimeType}, ${bytes} bytes not shown]`;
}

function resourceLinkLabel(fields: Record<string, unknown>): string {
  const details = [fields.name, fields.mimeType, fields.description].filter(
    (value): value is string => typeof value === 'string' && value !== '',
  );
  return `[Resource link: ${String(fields.uri)}${details.length > 0 ? ` (${details.join(', ')})` : ''}]`;
}
