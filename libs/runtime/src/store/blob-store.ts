import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { blobKey } from '../keys.js';

/**
 * Content-addressed byte blobs in Redis, keyed by the sha256 of their bytes. Conversations keep
 * large media here and reference it by hash, so the same image sent in many turns or many
 * conversations is stored once. Blobs are never rewritten (SET NX) and not expired: they are
 * shared, so deleting one needs a reference count or a sweep (not implemented yet).
 */
export class BlobStore {
  readonly #redis: Redis;
  readonly #prefix: string;

  constructor(redis: Redis, prefix: string) {
    this.#redis = redis;
    this.#prefix = prefix;
  }

  /** Stores `bytes` (a no-op when the same bytes are stored already) and returns their sha256 in hex. */
  async put(bytes: Buffer): Promise<string> {
    const sha256 = BlobStore.hash(bytes);
    await this.#redis.set(blobKey(this.#prefix, sha256), bytes, 'NX');
    return sha256;
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
