import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { blobKey } from '../keys.js';
import { type RedisCommand, sendAcrossSlots } from '../shared/send-across-slots.js';

/** How much longer than a conversation's retention its blobs stay, so none expires first. */
export const BLOB_GRACE_SECONDS = 60;

/**
 * Content-addressed byte blobs in Redis, keyed by the sha256 of their bytes. Conversations keep
 * large media here and reference it by hash, so the same image sent in many turns or many
 * conversations is stored once. Blobs are never rewritten (SET NX).
 *
 * Shared blobs expire by the longest-lived conversation that references them: with
 * `expirySeconds`, each conversation turn pushes the expiry of every blob it references to at
 * least that far ahead (`EXPIRE … GT` never shortens one, and never sets one on a blob kept
 * forever by a conversation without retention). Without, blobs are kept.
 */
export class BlobStore {
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #expirySeconds: number;

  /** `expirySeconds`: how long a blob stays after the latest turn that references it; 0 keeps it. */
  constructor(redis: Redis, prefix: string, expirySeconds = 0) {
    this.#redis = redis;
    this.#prefix = prefix;
    this.#expirySeconds = expirySeconds;
  }

  /** Stores `bytes` (only refreshing its expiry when the same bytes are stored already) and returns their sha256 in hex. */
  async put(bytes: Buffer): Promise<string> {
    const sha256 = BlobStore.hash(bytes);
    const key = blobKey(this.#prefix, sha256);
    if (this.#expirySeconds === 0) await this.#redis.set(key, bytes, 'NX');
    else {
      await this.#redis
        .pipeline()
        .set(key, bytes, 'EX', this.#expirySeconds, 'NX')
        .expire(key, this.#expirySeconds, 'GT')
        .exec();
    }
    return sha256;
  }

  /** Pushes the expiry of each blob in `sha256s` to at least `expirySeconds` from now (a no-op without expiry). */
  async refresh(sha256s: readonly string[]): Promise<void> {
    if (this.#expirySeconds === 0 || sha256s.length === 0) return;
    await sendAcrossSlots(
      this.#redis,
      sha256s.map(
        (sha256): RedisCommand => ['EXPIRE', blobKey(this.#prefix, sha256), this.#expirySeconds, 'GT'],
      ),
    );
  }

  /**
   * The bytes stored under `sha256`, or `undefined` when there are none or they no longer
   * match their hash (a corrupted blob is never returned as data).
   */
  async get(sha256: string): Promise<Buffer | undefined> {
    const bytes = await this.#redis.getBuffer(blobKey(this.#prefix, sha256));
    if (bytes === null || BlobStore.hash(bytes) !== sha256) return undefined;
    return bytes;
  }

  /** The sha256 of `bytes` in hex: a blob's address. */
  static hash(bytes: Buffer): string {
    return createHash('sha256').update(bytes).digest('hex');
  }
}
