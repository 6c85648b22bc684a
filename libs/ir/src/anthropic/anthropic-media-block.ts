import { attachmentToWire } from '../shared/attachment-to-wire.js';
import { isHttpUrl } from '../shared/is-http-url.js';
import type { WarningSink } from '../shared/warning-sink.js';
import type { Attachment, ResolvedAttachment } from '../types/attachment.js';
import type { AnthropicDocumentBlock, AnthropicImageBlock, AnthropicTextBlock } from './anthropic-wire.js';

/** The base64 image types the Messages API accepts. */
const BASE64_IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/** A block an attachment becomes: media, or a text note when Anthropic cannot take it. */
export type AnthropicMediaBlock = AnthropicImageBlock | AnthropicDocumentBlock | AnthropicTextBlock;

/**
 * The Messages API block for an attachment:
 * - images: `image` with a base64 (jpeg, png, gif, webp), `url` or `file` source;
 * - PDFs: `document` with a base64, `url` or `file` source;
 * - `text/*` in base64: a `document` with a plain-text source (the bytes decoded as UTF-8);
 * - any other uploaded file: a `document` with a `file` source.
 * A document's `filename` becomes its `title`. Forms the API cannot take (other base64 types,
 * non-PDF URLs, `gs://`) become a text note and an `attachment-unsupported` warning.
 */
export function toAnthropicMediaBlock(
  attachment: Attachment,
  sink: WarningSink,
  messageIndex: number,
): AnthropicMediaBlock {
  return attachmentToWire<AnthropicMediaBlock>(
    attachment,
    convert,
    (text) => ({ type: 'text', text }),
    sink,
    messageIndex,
  );
}

function convert(attachment: ResolvedAttachment): AnthropicImageBlock | AnthropicDocumentBlock | string {
  const mediaType = attachment.mediaType.toLowerCase();
  if (attachment.source === 'url' && !isHttpUrl(attachment.url)) {
    return 'the Messages API fetches media only over http(s)';
  }
  if (mediaType.startsWith('image/')) return image(attachment, mediaType);
  return document(attachment, mediaType);
}

function image(attachment: ResolvedAttachment, mediaType: string): AnthropicImageBlock | string {
  if (attachment.source === 'url') return { type: 'image', source: { type: 'url', url: attachment.url } };
  if (attachment.source === 'file-id')
    return { type: 'image', source: { type: 'file', file_id: attachment.fileId } };
  if (!BASE64_IMAGE_TYPES.has(mediaType)) return 'base64 images must be jpeg, png, gif or webp';
  return { type: 'image', source: { type: 'base64', media_type: mediaType, data: attachment.base64 } };
}

function document(attachment: ResolvedAttachment, mediaType: string): AnthropicDocumentBlock | string {
  const title = attachment.filename ? { title: attachment.filename } : {};
  if (attachment.source === 'file-id') {
    return { type: 'document', source: { type: 'file', file_id: attachment.fileId }, ...title };
  }
  const isPdf = mediaType === 'application/pdf';
  if (attachment.source === 'url') {
    if (!isPdf) return 'documents by URL must be PDFs';
    return { type: 'document', source: { type: 'url', url: attachment.url }, ...title };
  }
  if (isPdf) {
    return {
      type: 'document',
      source: { type: 'base64', media_type: mediaType, data: attachment.base64 },
      ...title,
    };
  }
  if (mediaType.startsWith('text/')) {
    const data = Buffer.from(attachment.base64, 'base64').toString('utf8');
    return { type: 'document', source: { type: 'text', media_type: 'text/plain', data }, ...title };
  }
  return 'base64 documents must be PDFs or text';
}
