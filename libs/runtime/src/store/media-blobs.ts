/**
 * Large media leave the message log: an attachment whose inline `data` is longer than the
 * threshold is stored as a content-addressed blob ({@link BlobStore}) and the stored message
 * keeps a {@link BlobReference} instead. Loading puts the exact original `data` back. Only
 * encodings that round-trip byte for byte (raw base64, base64 `data:` URLs) are moved; anything
 * else stays inline.
 */
import { type Attachment, type Message, parseDataUrl, toDataUrl } from '@flotilla/ir';
import type { BlobStore } from './blob-store.js';

/** Where an attachment's bytes went, and how to rebuild its `data` string. */
export interface BlobReference {
  sha256: string;
  /** `base64`: data was raw base64; `data-url`: data was `data:<dataUrlMediaType>;base64,…`. */
  format: 'base64' | 'data-url';
  dataUrlMediaType?: string;
}

/** An attachment as persisted: `data` is empty when `blob` is set. */
export type StoredAttachment = Attachment & { blob?: BlobReference };

/** Inline `data` longer than this many characters moves to a blob. @default 65536 (64 KiB) */
export const DEFAULT_BLOB_THRESHOLD_BYTES = 64 * 1024;

/** Whether `message` has an inline attachment longer than `thresholdBytes` (one {@link offloadMedia} moves). */
function hasLargeMedia(message: Message, thresholdBytes: number): boolean {
  return message.attachments?.some((attachment) => attachment.data.length > thresholdBytes) ?? false;
}

/**
 * Returns copies of `messages` whose large attachments are stored in `blobs` and referenced;
 * `messages` itself, without waiting, when none has one (most turns: no promise per message).
 */
export function offloadMedia(
  messages: Message[],
  blobs: BlobStore,
  thresholdBytes: number,
): Message[] | Promise<Message[]> {
  if (!messages.some((message) => hasLargeMedia(message, thresholdBytes))) return messages;
  return Promise.all(
    messages.map(async (message) => {
      if (!message.attachments || !hasLargeMedia(message, thresholdBytes)) return message;
      const attachments = await Promise.all(
        message.attachments.map((attachment) =>
          attachment.data.length > thresholdBytes ? offloadAttachment(attachment, blobs) : attachment,
        ),
      );
      return { ...message, attachments };
    }),
  );
}

/** The sha256 of every blob the (offloaded) `messages` reference. */
export function referencedBlobs(messages: readonly Message[]): string[] {
  const hashes = new Set<string>();
  for (const message of messages) {
    for (const attachment of (message.attachments ?? []) as StoredAttachment[]) {
      if (attachment.blob) hashes.add(attachment.blob.sha256);
    }
    // A tool result the context budget offloaded lives in a blob too: it expires with the conversation.
    const offloaded = (message as { _offloaded_output?: { sha256?: unknown } })._offloaded_output?.sha256;
    if (typeof offloaded === 'string' && /^[0-9a-f]{64}$/.test(offloaded)) hashes.add(offloaded);
  }
  return [...hashes];
}

/** Whether a stored message has media moved to blobs (which {@link restoreMedia} reads back). */
export function hasBlobMedia(message: Message): boolean {
  const attachments = message.attachments as StoredAttachment[] | undefined;
  return attachments?.some((attachment) => attachment.blob) ?? false;
}

/**
 * Puts blob bytes back into the attachments of `message`. Throws a plain `Error` naming the
 * blob when one is missing; the store turns it into a `ConversationCorruptedError`.
 */
export async function restoreMedia(message: Message, blobs: BlobStore): Promise<Message> {
  if (!hasBlobMedia(message)) return message;
  const attachments = message.attachments as StoredAttachment[];
  const restored = await Promise.all(attachments.map((attachment) => restoreAttachment(attachment, blobs)));
  return { ...message, attachments: restored };
}

async function offloadAttachment(attachment: Attachment, blobs: BlobStore): Promise<StoredAttachment> {
  if (attachment.source !== undefined && attachment.source !== 'base64') return attachment;
  const dataUrl = parseDataUrl(attachment.data);
  const base64 = dataUrl ? dataUrl.base64 : attachment.data;
  const bytes = Buffer.from(base64, 'base64');
  // Only move what we can rebuild exactly; whitespace or missing padding would not survive.
  if (bytes.toString('base64') !== base64) return attachment;
  if (dataUrl && toDataUrl(dataUrl.mediaType, base64) !== attachment.data) return attachment;
  const sha256 = await blobs.put(bytes);
  const blob: BlobReference = dataUrl
    ? { sha256, format: 'data-url', dataUrlMediaType: dataUrl.mediaType }
    : { sha256, format: 'base64' };
  return { ...attachment, data: '', blob };
}

async function restoreAttachment(attachment: StoredAttachment, blobs: BlobStore): Promise<Attachment> {
  const { blob, ...rest } = attachment;
  if (!blob) return attachment;
  const bytes = await blobs.get(blob.sha256);
  if (!bytes) throw new Error(`media blob ${blob.sha256} is missing or does not match its hash`);
  const base64 = bytes.toString('base64');
  const data = blob.format === 'data-url' ? toDataUrl(blob.dataUrlMediaType ?? '', base64) : base64;
  return { ...rest, data };
}
