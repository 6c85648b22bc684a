import { type ContentPart, type ToolContent, toolContent } from '@flotilla/runtime';

/**
 * Turns a LangChain tool's result into a Flotilla tool result. Only an array of content blocks
 * (every item an object with a string `type`) that holds at least one image becomes
 * `toolContent(parts)`:
 * - `{ type: 'text', text }` → text;
 * - classic `{ type: 'image_url', image_url: string | { url, detail? } }` → image;
 * - standard `{ type: 'image', url }` or `{ type: 'image', data, mimeType }` (also the older
 *   `source_type: 'url' | 'base64'` and `mime_type` spellings; `data` may be base64, a data URL
 *   or bytes) → image, base64 as a `data:` URL (`image/png` when no type is given);
 * - any other block → its JSON as text.
 * Everything else (strings, objects, text-only block arrays) is returned unchanged.
 */
export function langChainResultToToolResult(result: unknown): unknown {
  if (!Array.isArray(result) || result.length === 0 || !result.every(isBlock)) return result;
  if (!result.some((block) => block.type === 'image' || block.type === 'image_url')) return result;
  return toolContent(result.map(blockToPart)) satisfies ToolContent;
}

type Block = { type: string; [field: string]: unknown };

function isBlock(value: unknown): value is Block {
  return typeof value === 'object' && value !== null && typeof (value as Block).type === 'string';
}

function blockToPart(block: Block): ContentPart {
  if (block.type === 'text' && typeof block.text === 'string') return { type: 'text', text: block.text };
  const url =
    block.type === 'image_url'
      ? imageUrlOf(block.image_url)
      : block.type === 'image'
        ? imageOf(block)
        : undefined;
  if (url) return { type: 'image', image: { url } };
  return { type: 'text', text: JSON.stringify(block) };
}

function imageUrlOf(imageUrl: unknown): string | undefined {
  if (typeof imageUrl === 'string') return imageUrl;
  if (
    typeof imageUrl === 'object' &&
    imageUrl !== null &&
    typeof (imageUrl as { url?: unknown }).url === 'string'
  ) {
    return (imageUrl as { url: string }).url;
  }
  return undefined;
}

function imageOf(block: Block): string | undefined {
  if (typeof block.url === 'string') return block.url;
  const mimeType =
    (typeof block.mimeType === 'string' && block.mimeType) ||
    (typeof block.mime_type === 'string' && block.mime_type) ||
    'image/png';
  if (typeof block.data === 'string') {
    return block.data.startsWith('data:') ? block.data : `data:${mimeType};base64,${block.data}`;
  }
  if (block.data instanceof Uint8Array)
    return `data:${mimeType};base64,${Buffer.from(block.data).toString('base64')}`;
  return undefined;
}
