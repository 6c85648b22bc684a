import type { Redis } from 'ioredis';
import type { RunMemoryStore } from '../engine/run-services.js';
import { type RunKeys, runKeys } from '../keys.js';

/**
 * The {@link RunMemoryStore} of one run in Redis: one hash per agent invocation
 * (`runKeys(…).memoryOf(callPath)`, field = memory key, value = JSON) plus an index set of the
 * callPaths written, so {@link deleteAll} can remove the run's memory when it ends
 * (ARCHITECTURE.md §5). Every key shares the run's hash tag.
 */
export class RedisRunMemoryStore implements RunMemoryStore {
  readonly #redis: Redis;
  readonly #keys: RunKeys;

  constructor(options: { redis: Redis; prefix: string; runId: string }) {
    this.#redis = options.redis;
    this.#keys = runKeys(options.prefix, options.runId);
  }

  async load(callPath: string): Promise<Record<string, unknown>> {
    const fields = await this.#redis.hgetall(this.#keys.memoryOf(callPath));
    const memory: Record<string, unknown> = {};
    for (const [key, text] of Object.entries(fields)) memory[key] = JSON.parse(text);
    return memory;
  }

  /** Stores `value` as JSON; `undefined` removes the key (JSON has no `undefined`). */
  async set(callPath: string, key: string, value: unknown): Promise<void> {
    const hash = this.#keys.memoryOf(callPath);
    const text = JSON.stringify(value);
    if (text === undefined) {
      await this.#redis.hdel(hash, key);
      return;
    }
    await this.#redis.multi().hset(hash, key, text).sadd(this.#keys.memoryIndex, callPath).exec();
  }

  async clear(callPath: string): Promise<void> {
    await this.#redis
      .multi()
      .del(this.#keys.memoryOf(callPath))
      .srem(this.#keys.memoryIndex, callPath)
      .exec();
  }

  /** Deletes the memory of every invocation of the run (called when the run ends). */
  async deleteAll(): Promise<void> {
    const callPaths = await this.#redis.smembers(this.#keys.memoryIndex);
    const keys = [...callPaths.map((callPath) => this.#keys.memoryOf(callPath)), this.#keys.memoryIndex];
    await this.#redis.unlink(...keys);
  }
}
