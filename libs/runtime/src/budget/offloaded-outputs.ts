/**
 * Where large tool results go when they are offloaded (`offloadToolResultsOver`): text blobs
 * addressed by the sha256 of their UTF-8 bytes, so the same output stored twice (a replay,
 * another worker) is one blob with one id. On a worker: {@link RedisOffloadedOutputs}, the
 * conversation store's blob keys (`blob:<sha256>`), kept as long as its conversations'
 * media; embedded: {@link InMemoryOffloadedOutputs}.
 */
import type { Redis } from 'ioredis';
import { BLOB_GRACE_SECONDS, BlobStore } from '../store/blob-store.js';

/** A store of offloaded tool output. */
export interface OffloadedOutputs {
  /** Stores `text` (idempotent) and returns its id: the sha256 of its UTF-8 bytes, in hex. */
  put(text: string): Promise<string>;
  /** The text stored under `id`, or `undefined` when there is none. */
  get(id: string): Promise<string | undefined>;
}

/** {@link OffloadedOutputs} in process memory (embedded runs, tests). */
export class InMemoryOffloadedOutputs implements OffloadedOutputs {
  readonly #texts = new Map<string, string>();

  async put(text: string): Promise<string> {
    const id = BlobStore.hash(Buffer.from(text, 'utf8'));
    this.#texts.set(id, text);
    return id;
  }

  async get(id: string): Promise<string | undefined> {
    return this.#texts.get(id);
  }
}

/** {@link OffloadedOutputs} in Redis, as content-addressed blobs. */
export class RedisOffloadedOutputs implements OffloadedOutputs {
  readonly #blobs: BlobStore;

  /** `retentionSeconds`: the conversations' retention (0 keeps outputs); blobs stay 60 s longer. */
  constructor(options: { redis: Redis; prefix: string; retentionSeconds?: number }) {
    const retention = options.retentionSeconds ?? 0;
    this.#blobs = new BlobStore(
      options.redis,
      options.prefix,
      retention === 0 ? 0 : retention + BLOB_GRACE_SECONDS,
    );
  }

  put(text: string): Promise<string> {
    return this.#blobs.put(Buffer.from(text, 'utf8'));
  }

  async get(id: string): Promise<string | undefined> {
    return (await this.#blobs.get(id))?.toString('utf8');
  }
}
