/**
 * Content parts (instructions, tool results) become IR: text parts joined into `content`,
 * media as attachments. A `data:` URL becomes a base64 attachment with its media type; an
 * http(s) URL stays a URL attachment with a media type guessed from its extension.
 */
import type { Attachment } from '@flotilla/ir';
import { parseDataUrl } from '@flotilla/ir';
import type { ContentPart } from './tool-content.js';

/** The IR form of content parts. */
export interface IrContent {
  content: string;
  attachments: Attachment[];
}

const EXTENSION_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
};

/** Converts parts to IR text + attachments; text parts are joined with a blank line. */
export function contentPartsToIr(parts: ContentPart[]): IrContent {
  const texts: string[] = [];
  const attachments: Attachment[] = [];
  for (const part of parts) {
    if (part.type === 'text') texts.push(part.text);
    else if (part.type === 'image') {
      const attachment = urlToAttachment(part.image.url, 'image');
      if (part.image.detail !== undefined) attachment.detail = part.image.detail;
      attachments.push(attachment);
    } else attachments.push(urlToAttachment(part.video.url, 'video'));
  }
  return { content: texts.join('\n\n'), attachments };
}

function urlToAttachment(url: string, kind: 'image' | 'video'): Attachment {
  const dataUrl = parseDataUrl(url);
  if (dataUrl) return { mediaType: dataUrl.mediaType, data: dataUrl.base64, source: 'base64' };
  return { mediaType: guessMediaType(url, kind), data: url, source: 'url' };
}

function guessMediaType(url: string, kind: 'image' | 'video'): string {
  const path = url.split(/[?#]/)[0] ?? '';
  const extension = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  return EXTENSION_TYPES[extension] ?? `${kind}/*`;
}

const DETAILS = new Set(['auto', 'low', 'high', 'original']);

/**
 * The first thing wrong with multimodal tool output (a tool's return value is an outside
 * value): where it is and why, or `undefined` when every part is well formed.
 */
export function contentPartProblem(parts: readonly unknown[]): { path: string; reason: string } | undefined {
  for (const [index, part] of parts.entries()) {
    const path = `content[${index}]`;
    if (typeof part !== 'object' || part === null)
      return { path, reason: 'a content part must be an object' };
    const { type } = part as { type?: unknown };
    const media = type === 'image' || type === 'video' ? (part as Record<string, unknown>)[type] : undefined;
    if (type === 'text') {
      if (typeof (part as { text?: unknown }).text !== 'string')
        return { path: `${path}.text`, reason: 'not a string' };
    } else if (type === 'image' || type === 'video') {
      if (typeof media !== 'object' || media === null || typeof (media as { url?: unknown }).url !== 'string')
        return { path: `${path}.${type}.url`, reason: 'an image or video part needs { url: string }' };
      const { detail } = media as { detail?: unknown };
      if (detail !== undefined && !DETAILS.has(detail as string))
        return {
          path: `${path}.${type}.detail`,
          reason: "detail must be 'auto', 'low', 'high' or 'original'",
        };
    } else return { path: `${path}.type`, reason: "a content part's type is 'text', 'image' or 'video'" };
  }
  return undefined;
}
