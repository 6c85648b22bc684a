import type { Attachment } from '../types/attachment.js';
import type { Message } from '../types/message.js';

/**
 * Replaces a message's attachments with text placeholders put in front of its content:
 * `[image]` / `[image: photo.png]` for `image/*`, `[document]` / `[document: report.pdf]` for
 * any other media type, `[attachment]` when the media type is empty. Used when a summariser
 * must not receive media bytes. Returns the message itself when it has no attachments.
 */
export function withMediaPlaceholders<M extends Message>(message: M): M {
  if (!message.attachments || message.attachments.length === 0) return message;
  const { attachments, ...rest } = message;
  const labels = attachments.map(placeholderFor).join('\n');
  const content = message.content === '' ? labels : `${labels}\n${message.content}`;
  return { ...rest, content } as M;
}

function placeholderFor(attachment: Attachment): string {
  const mediaType = attachment.mediaType.trim().toLowerCase();
  const kind = mediaType === '' ? 'attachment' : mediaType.startsWith('image/') ? 'image' : 'document';
  return attachment.filename && kind !== 'attachment' ? `[${kind}: ${attachment.filename}]` : `[${kind}]`;
}
