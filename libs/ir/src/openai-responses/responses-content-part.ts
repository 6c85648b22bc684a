import { attachmentToWire } from '../shared/attachment-to-wire.js';
import { filenameOrDefault } from '../shared/default-filename.js';
import { isHttpUrl } from '../shared/is-http-url.js';
import type { WarningSink } from '../shared/warning-sink.js';
import { type Attachment, type ResolvedAttachment, toDataUrl } from '../types/attachment.js';
import type { ResponsesInputContentPart } from './openai-responses-wire.js';

/**
 * The Responses API input part for an attachment:
 * - images: `input_image` with `image_url` (the `http(s)` URL, or a `data:` URL built from
 *   base64) or `file_id`, and the attachment's `detail` when it has one;
 * - anything else: `input_file` with `file_data` (a `data:` URL, plus a filename), `file_url`
 *   or `file_id`.
 * Audio and video (no Responses input part takes them) and `gs://` URLs become a text note and
 * an `attachment-unsupported` warning.
 */
export function toResponsesContentPart(
  attachment: Attachment,
  sink: WarningSink,
  messageIndex: number,
): ResponsesInputContentPart {
  return attachmentToWire(attachment, convert, (text) => ({ type: 'input_text', text }), sink, messageIndex);
}

function convert(attachment: ResolvedAttachment): ResponsesInputContentPart | string {
  const mediaType = attachment.mediaType.toLowerCase();
  if (mediaType.startsWith('audio/') || mediaType.startsWith('video/')) {
    return 'the Responses API takes no audio or video input parts';
  }
  if (attachment.source === 'url' && !isHttpUrl(attachment.url)) {
    return 'the Responses API fetches media only over http(s)';
  }
  if (mediaType.startsWith('image/')) return image(attachment);
  if (attachment.source === 'file-id') return { type: 'input_file', file_id: attachment.fileId };
  if (attachment.source === 'url') return { type: 'input_file', file_url: attachment.url };
  return {
    type: 'input_file',
    file_data: toDataUrl(attachment.mediaType, attachment.base64),
    filename: filenameOrDefault(attachment.filename, attachment.mediaType),
  };
}

function image(attachment: ResolvedAttachment): ResponsesInputContentPart {
  const detail = attachment.detail === undefined ? {} : { detail: attachment.detail };
  if (attachment.source === 'file-id') return { type: 'input_image', file_id: attachment.fileId, ...detail };
  if (attachment.source === 'url') return { type: 'input_image', image_url: attachment.url, ...detail };
  return { type: 'input_image', image_url: toDataUrl(attachment.mediaType, attachment.base64), ...detail };
}
