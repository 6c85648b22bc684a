import { type Attachment, type ResolvedAttachment, resolveAttachment } from '../types/attachment.js';
import { describeAttachment, omittedAttachmentText } from './describe-attachment.js';
import type { WarningSink } from './warning-sink.js';

/**
 * One target's rule for a resolved attachment: the wire part, or a short sentence saying why the
 * target cannot send it (it is quoted in the `attachment-unsupported` warning).
 */
export type AttachmentConverter<Part> = (attachment: ResolvedAttachment) => Part | string;

/**
 * Converts an attachment to a target's wire part. Every target degrades the same way: when
 * `convert` gives a reason instead of a part, an `attachment-unsupported` warning names the
 * attachment and the reason, and the attachment becomes `textNote` of an "[attachment omitted: …]"
 * text, so the model still learns that something was there.
 */
export function attachmentToWire<Part extends object>(
  attachment: Attachment,
  convert: AttachmentConverter<Part>,
  textNote: (text: string) => Part,
  sink: WarningSink,
  messageIndex: number,
): Part {
  const resolved = resolveAttachment(attachment);
  const part = convert(resolved);
  if (typeof part !== 'string') return part;
  sink.warn(
    'attachment-unsupported',
    `${describeAttachment(resolved)} cannot be sent: ${part}; replaced by a text note`,
    messageIndex,
  );
  return textNote(omittedAttachmentText(resolved));
}
