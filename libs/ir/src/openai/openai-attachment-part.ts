import { attachmentToWire } from '../shared/attachment-to-wire.js';
import { filenameOrDefault } from '../shared/default-filename.js';
import { isHttpUrl } from '../shared/is-http-url.js';
import type { WarningSink } from '../shared/warning-sink.js';
import { type Attachment, type ResolvedAttachment, toDataUrl } from '../types/attachment.js';
import type { OpenAIUserContentPart } from './openai-wire.js';

const AUDIO_FORMATS: Record<string, 'wav' | 'mp3'> = {
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
};

/**
 * The Chat Completions content part for an attachment of a user message:
 * - images: `image_url` with the `http(s)` URL, or a `data:` URL built from base64, and the
 *   attachment's `detail` (except `'original'`, which Chat Completions does not take);
 * - `wav` / `mp3` audio in base64: `input_audio`;
 * - anything else: `file` with a `data:` URL in `file_data` (plus a filename, which the API
 *   requires) or the uploaded `file_id`.
 * Forms the API cannot take (image file ids, `gs://` URLs, document URLs, other audio) become a
 * text note and an `attachment-unsupported` warning.
 */
export function toOpenAIContentPart(
  attachment: Attachment,
  sink: WarningSink,
  messageIndex: number,
): OpenAIUserContentPart {
  return attachmentToWire(attachment, convert, (text) => ({ type: 'text', text }), sink, messageIndex);
}

/** The part, or why there is none. */
function convert(attachment: ResolvedAttachment): OpenAIUserContentPart | string {
  const mediaType = attachment.mediaType.toLowerCase();
  if (mediaType.startsWith('image/')) return imagePart(attachment);
  if (mediaType.startsWith('audio/')) return audioPart(attachment, AUDIO_FORMATS[mediaType]);
  if (attachment.source === 'base64') {
    const filename = filenameOrDefault(attachment.filename, attachment.mediaType);
    return {
      type: 'file',
      file: { file_data: toDataUrl(attachment.mediaType, attachment.base64), filename },
    };
  }
  if (attachment.source === 'file-id') return { type: 'file', file: { file_id: attachment.fileId } };
  return 'Chat Completions takes files only inline or as uploaded file ids, not by URL';
}

function imagePart(attachment: ResolvedAttachment): OpenAIUserContentPart | string {
  if (attachment.source === 'file-id') return 'Chat Completions does not take images by file id';
  if (attachment.source === 'url' && !isHttpUrl(attachment.url))
    return 'Chat Completions fetches images only over http(s)';
  const url =
    attachment.source === 'url' ? attachment.url : toDataUrl(attachment.mediaType, attachment.base64);
  // 'original' is a Responses-only value: leave the API's default instead.
  const detail = attachment.detail === 'original' ? undefined : attachment.detail;
  return { type: 'image_url', image_url: detail === undefined ? { url } : { url, detail } };
}

function audioPart(
  attachment: ResolvedAttachment,
  format: 'wav' | 'mp3' | undefined,
): OpenAIUserContentPart | string {
  if (attachment.source !== 'base64' || !format)
    return 'Chat Completions takes audio only as inline wav or mp3';
  return { type: 'input_audio', input_audio: { data: attachment.base64, format } };
}
