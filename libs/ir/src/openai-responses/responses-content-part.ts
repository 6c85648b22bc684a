import { filenameOrDefault } from '../shared/default-filename.js';
import { describeAttachment, omittedAttachmentText } from '../shared/describe-attachment.js';
import type { WarningSink } from '../shared/warning-sink.js';
import {
  type Attachment,
  type ResolvedAttachment,
  resolveAttachment,
  toDataUrl,
} from '../types/attachment.js';
import type { ResponsesInputContentPart } from './openai-responses-wire.js';

/**
 * The Responses API input part for an attachment:
 * - images: `input_image` with `image_url` (the `http(s)` URL, or a `data:` URL built from
 *   base64) or `file_id`;
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
  const resolved = resolveAttachment(attachment);
  const part = convert(resolved);
  if (typeof part !== 'string') return part;
  sink.warn(
    'attachment-unsupported',
    `${describeAttachment(resolved)} cannot be sent: ${part}; replaced by a text note`,
    messageIndex,
  );
  return { type: 'input_text', text: omittedAttachmentText(resolved) };
}

function convert(attachment: ResolvedAttachment): ResponsesInputContentPart | string {
  const mediaType = attachment.mediaType.toLowerCase();
  if (mediaType.startsWith('audio/') || mediaType.startsWith('video/')) {
    return 'the Responses API takes no audio or video input parts';
  }
  if (attachment.source === 'url' && !/^https?:\/\//i.test(attachment.url)) {
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
  if (attachment.source === 'file-id') return { type: 'input_image', file_id: attachment.fileId };
  if (attachment.source === 'url') return { type: 'input_image', image_url: attachment.url };
  return { type: 'input_image', image_url: toDataUrl(attachment.mediaType, attachment.base64) };
}
