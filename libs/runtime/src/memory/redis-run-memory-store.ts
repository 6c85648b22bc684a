import type { Redis } from 'ioredis';
import type { RunMemoryStore } from '../context/run-services.js';
import { AttemptSupersededError } from '../errors/run-errors.js';
import { type RunKeys, runKeys } from '../keys.js';
import { ATTEMPT_SUPERSEDED } from '../store/lua/attempt-fence.lua.js';
import { writeMemoryScript } from './lua/write-memory-3.lua.js';

/**
 * The {@link RunMemoryStore} of one run in Redis: one hash per agent invocation
 * (`runKeys(…).memoryOf(callPath)`, field = memory key, value = JSON) plus an index set of the
 * callPaths written, so {@link deleteAll} can remove the run's memory when it ends
 * (ARCHITECTURE.md §5). Every key shares the run's hash tag.
 *
 * Only the run's one execution at a time writes its memory (the job's lock), which the store
 * relies on for two shortcuts: {@link prefetch} reads an invocation's memory ahead of its
 * `load`, and {@link clear} of an invocation this store loaded empty and never wrote sends
 * nothing (there is nothing to delete). Given an `attempt`, every write is refused once a newer
 * attempt owns the run (`write-memory-3`): it throws `AttemptSupersededError`.
 */
export class RedisRunMemoryStore implements RunMemoryStore {
  readonly #redis: Redis;
  readonly #keys: RunKeys;
  readonly #runId: string;
  readonly #attempt: string;
  readonly #beforeWrite: (() => Promise<void>) | undefined;
  /** Reads started by {@link prefetch}, each handed to the next `load` of its callPath. */
  readonly #prefetched = new Map<string, Promise<Record<string, string>>>();
  /** Read already (by the run's start), by callPath: served without a promise. */
  readonly #preloaded = new Map<string, Record<string, string>>();
  /** CallPaths loaded empty and not written since: `clear` has nothing to delete. */
  readonly #empty = new Set<string>();

  constructor(options: {
    redis: Redis;
    prefix: string;
    runId: string;
    /** The writing attempt's token (the attempt fence). @default none: not fenced */
    attempt?: string;
    /**
     * Awaited before each write (the worker: the journal's deferred model turns are stored first,
     * so a replay never finds memory made from an answer it asks again). @default none
     */
    beforeWrite?: () => Promise<void>;
  }) {
    this.#redis = options.redis;
    this.#keys = runKeys(options.prefix, options.runId);
    this.#runId = options.runId;
    this.#attempt = options.attempt ?? '';
    this.#beforeWrite = options.beforeWrite;
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
    this.#preloaded.delete(callPath);
    this.#prefetched.set(callPath, read);
  }

  /**
   * The next {@link load} of `callPath` resolves with `fields`, read already (the run's start),
   * and {@link loaded} returns them at once.
   */
  preload(callPath: string, fields: Record<string, string>): void {
    this.#prefetched.delete(callPath);
    this.#preloaded.set(callPath, fields);
  }

  /** The memory of `callPath` when it was preloaded (taken: once), without a promise; else `undefined`. */
  loaded(callPath: string): Record<string, unknown> | undefined {
    const fields = this.#preloaded.get(callPath);
    if (fields === undefined) return undefined;
    this.#preloaded.delete(callPath);
    return this.#parsed(callPath, fields);
  }

  async load(callPath: string): Promise<Record<string, unknown>> {
    const preloaded = this.loaded(callPath);
    if (preloaded) return preloaded;
    const prefetched = this.#prefetched.get(callPath);
    this.#prefetched.delete(callPath);
    return this.#parsed(callPath, await (prefetched ?? this.#redis.hgetall(this.#keys.memoryOf(callPath))));
  }

  #parsed(callPath: string, fields: Record<string, string>): Record<string, unknown> {
    if (Object.keys(fields).length === 0) this.#empty.add(callPath);
    else this.#empty.delete(callPath);
    const memory: Record<string, unknown> = {};
    for (const [key, text] of Object.entries(fields)) memory[key] = JSON.parse(text);
    return memory;
  }

  /** Stores `value` as JSON; `undefined` removes the key (JSON has no `undefined`). */
  async set(callPath: string, key: string, value: unknown): Promise<void> {
    this.#empty.delete(callPath);
    const text = JSON.stringify(value);
    await (text === undefined
      ? this.#write(callPath, ['unset', callPath, key])
      : this.#write(callPath, ['set', callPath, key, text]));
  }

  async clear(callPath: string): Promise<void> {
    if (this.#empty.has(callPath)) return;
    await this.#write(callPath, ['clear', callPath]);
  }

  /** @throws AttemptSupersededError when a newer attempt owns the run */
  async #write(callPath: string, args: string[]): Promise<void> {
    if (this.#beforeWrite) await this.#beforeWrite();
    const keys = [this.#keys.record, this.#keys.memoryOf(callPath), this.#keys.memoryIndex];
    const reply = await writeMemoryScript.run(this.#redis, keys, [this.#attempt, ...args]);
    if (reply === ATTEMPT_SUPERSEDED) throw new AttemptSupersededError(this.#runId, 'a memory write');
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
    // A set without members does not exist: nothing to delete (most runs keep no memory).
    if (callPaths.length === 0) return [];
    return [...callPaths.map((callPath) => this.#keys.memoryOf(callPath)), this.#keys.memoryIndex];
  }

  /** Deletes `keys` (from {@link keys}). */
  async deleteKeys(keys: readonly string[]): Promise<void> {
    if (keys.length > 0) await this.#redis.unlink(...keys);
  }
}
