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
    else if (part.type === 'image') attachments.push(urlToAttachment(part.image.url, 'image'));
    else attachments.push(urlToAttachment(part.video.url, 'video'));
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
