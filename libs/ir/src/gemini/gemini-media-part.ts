import { attachmentToWire } from '../shared/attachment-to-wire.js';
import type { WarningSink } from '../shared/warning-sink.js';
import type { Attachment, ResolvedAttachment } from '../types/attachment.js';
import type { GeminiPart } from './gemini-wire.js';

/**
 * The Gemini part for an attachment: `inlineData { mimeType, data }` (raw base64) for inline
 * bytes, `fileData { mimeType, fileUri }` for `http(s)://` and `gs://` URLs (Files API URIs are
 * URLs). A bare file id cannot be sent (Gemini references files by URI): it becomes a text note
 * and an `attachment-unsupported` warning.
 */
export function toGeminiMediaPart(
  attachment: Attachment,
  sink: WarningSink,
  messageIndex: number,
): GeminiPart {
  return attachmentToWire(attachment, convert, (text) => ({ text }), sink, messageIndex);
}

function convert(attachment: ResolvedAttachment): GeminiPart | string {
  if (attachment.source === 'base64') {
    return { inlineData: { mimeType: attachment.mediaType, data: attachment.base64 } };
  }
  if (attachment.source === 'url')
    return { fileData: { mimeType: attachment.mediaType, fileUri: attachment.url } };
  return 'Gemini references files by URI, not by id';
}
