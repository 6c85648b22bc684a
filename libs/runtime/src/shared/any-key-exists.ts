import type { Redis } from 'ioredis';
import { TickBatch } from './tick-batch.js';

/**
 * Whether any of a call's string keys (flags, e.g. the cancel flags of a run's parent and root,
 * under other hash tags than the run) exists, for many calls: the calls of one tick are read
 * together. Children of a fan-out start in the same tick (their jobs' fetch replies come in one
 * socket read) and ask for the same flags, so one read replaces one per child. On one Redis the
 * batch's distinct keys go in one `MGET` (which may cross slots there); on a Redis Cluster each
 * distinct key has an `EXISTS` of its own, sent together. Only for string keys: a key of
 * another type reads as absent in an `MGET`.
 */
export class AnyKeyExistsBatch {
  readonly #batch: TickBatch<readonly string[], boolean>;

  constructor(redis: Redis) {
    this.#batch = new TickBatch(async (calls) => {
      const keys = [...new Set(calls.flat())];
      const present = new Set<string>();
      if (keys.length > 0) {
        const found = redis.isCluster
          ? await Promise.all(keys.map(async (key) => (await redis.exists(key)) > 0))
          : (await redis.mget(...keys)).map((value) => value !== null);
        keys.forEach((key, index) => {
          if (found[index]) present.add(key);
        });
      }
      return calls.map((call) => call.some((key) => present.has(key)));
    });
  }

  /**
   * Whether any of `keys` exists; read after every command sent on the connection before this
   * call (the batch is sent at the end of the tick, on the same connection on one Redis).
   */
  any(keys: readonly string[]): Promise<boolean> {
    return keys.length === 0 ? Promise.resolve(false) : this.#batch.add(keys);
  }
}
