import type { Redis } from 'ioredis';
import type { RunMemoryStore } from '../context/run-services.js';
import { type RunKeys, runKeys } from '../keys.js';

/**
 * The {@link RunMemoryStore} of one run in Redis: one hash per agent invocation
 * (`runKeys(…).memoryOf(callPath)`, field = memory key, value = JSON) plus an index set of the
 * callPaths written, so {@link deleteAll} can remove the run's memory when it ends
 * (ARCHITECTURE.md §5). Every key shares the run's hash tag.
 *
 * Only the run's one execution at a time writes its memory (the job's lock), which the store
 * relies on for two shortcuts: {@link prefetch} reads an invocation's memory ahead of its
 * `load`, and {@link clear} of an invocation this store loaded empty and never wrote sends
 * nothing (there is nothing to delete).
 */
export class RedisRunMemoryStore implements RunMemoryStore {
  readonly #redis: Redis;
  readonly #keys: RunKeys;
  /** Reads started by {@link prefetch}, each handed to the next `load` of its callPath. */
  readonly #prefetched = new Map<string, Promise<Record<string, string>>>();
  /** CallPaths loaded empty and not written since: `clear` has nothing to delete. */
  readonly #empty = new Set<string>();

  constructor(options: { redis: Redis; prefix: string; runId: string }) {
    this.#redis = options.redis;
    this.#keys = runKeys(options.prefix, options.runId);
  }

  /**
   * Starts reading the memory of `callPath` now, so the read shares a round trip with whatever
   * the caller sends next (the worker: the journal load); the next {@link load} of `callPath`
   * resolves with it. A later prefetch of the same callPath replaces an unused one.
   */
  prefetch(callPath: string): void {
    const read = this.#redis.hgetall(this.#keys.memoryOf(callPath));
    // A failed read surfaces from the `load` that uses it; never as an unhandled rejection.
    read.catch(() => {});
    this.#prefetched.set(callPath, read);
  }

  async load(callPath: string): Promise<Record<string, unknown>> {
    const prefetched = this.#prefetched.get(callPath);
    this.#prefetched.delete(callPath);
    const fields = await (prefetched ?? this.#redis.hgetall(this.#keys.memoryOf(callPath)));
    if (Object.keys(fields).length === 0) this.#empty.add(callPath);
    else this.#empty.delete(callPath);
    const memory: Record<string, unknown> = {};
    for (const [key, text] of Object.entries(fields)) memory[key] = JSON.parse(text);
    return memory;
  }

  /** Stores `value` as JSON; `undefined` removes the key (JSON has no `undefined`). */
  async set(callPath: string, key: string, value: unknown): Promise<void> {
    const hash = this.#keys.memoryOf(callPath);
    this.#empty.delete(callPath);
    const text = JSON.stringify(value);
    if (text === undefined) {
      await this.#redis.hdel(hash, key);
      return;
    }
    await this.#redis.multi().hset(hash, key, text).sadd(this.#keys.memoryIndex, callPath).exec();
  }

  async clear(callPath: string): Promise<void> {
    if (this.#empty.has(callPath)) return;
    await this.#redis
      .multi()
      .del(this.#keys.memoryOf(callPath))
      .srem(this.#keys.memoryIndex, callPath)
      .exec();
  }

  /** Deletes the memory of every invocation of the run (called when the run ends). */
  async deleteAll(): Promise<void> {
    await this.deleteKeys(await this.keys());
  }

  /**
   * Every key of the run's memory (the index included), for {@link deleteKeys}: the worker reads
   * them in the round trip before the run's end and deletes them after it.
   */
  async keys(): Promise<string[]> {
    const callPaths = await this.#redis.smembers(this.#keys.memoryIndex);
    return [...callPaths.map((callPath) => this.#keys.memoryOf(callPath)), this.#keys.memoryIndex];
  }

  /** Deletes `keys` (from {@link keys}). */
  async deleteKeys(keys: readonly string[]): Promise<void> {
    if (keys.length > 0) await this.#redis.unlink(...keys);
  }
}
