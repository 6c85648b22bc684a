import type { ResolvedAttachment } from '../types/attachment.js';

/**
 * A short human-readable name of an attachment for warnings and for the text placeholder a
 * target leaves where it had to drop media: `image/png "cat.png" (url)`.
 */
export function describeAttachment(attachment: ResolvedAttachment): string {
  const name = attachment.filename ? ` "${attachment.filename}"` : '';
  return `${attachment.mediaType || 'unknown type'}${name} (${attachment.source})`;
}

/** The text left in a user message in place of an attachment the target cannot send. */
export function omittedAttachmentText(attachment: ResolvedAttachment): string {
  return `[attachment omitted: ${describeAttachment(attachment)}]`;
}
