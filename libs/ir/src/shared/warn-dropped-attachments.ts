import type { Message } from '../types/message.js';
import type { WarningSink } from './warning-sink.js';

/**
 * Reports, as one `attachment-unsupported` warning, the attachments of a message whose role the
 * target cannot give media to (they are left out of the payload); `reason` says which turns can.
 * Does nothing when the message has none.
 */
export function warnDroppedAttachments(
  message: Message,
  messageIndex: number,
  sink: WarningSink,
  reason: string,
): void {
  const count = message.attachments?.length ?? 0;
  if (count === 0) return;
  sink.warn(
    'attachment-unsupported',
    `${count} attachment(s) on a ${message.role} message dropped: ${reason}`,
    messageIndex,
  );
}
