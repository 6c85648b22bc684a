/**
 * The fleet-wide memo (ARCHITECTURE.md §5): a value computed once for the whole fleet and kept in
 * Redis under (memo key, hash of deps, epoch). Unlike `equipMemo`, which lives and dies with one
 * agent invocation, a fleet memo entry is shared by every run on every worker until it expires
 * or `forceRefresh` advances the epoch. The MCP adapter caches `tools/list` with it, so N agents
 * on M workers make one `tools/list` call, not N.
 */

import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { portableJson } from '../json/canonical-json.js';
import { NonPortableJsonError } from '../json/non-portable-json-error.js';
import { DEFAULT_PREFIX, type FleetMemoEntryKeys, fleetMemoKeys } from '../keys.js';
import { observeMemo } from '../shared/observation-channels.js';
import { tryAcquireFleetMemoLock } from './fleet-memo-lock.js';
import { FleetMemoNotifier } from './fleet-memo-notifier.js';
import { FleetMemoValueError } from './fleet-memo-value-error.js';

/** How to reach Redis and how long things live. */
export interface FleetMemoOptions {
  /**
   * Connection for commands. The memo never puts it in subscriber mode: it opens one duplicate
   * for pub/sub on first wait, closed by {@link FleetMemo.close}.
   */
  connection: Redis;
  /** Key prefix. @default DEFAULT_PREFIX (`flotilla`) */
  prefix?: string;
  /**
   * Lifetime of the single-flight lock. The holder renews it every third of this, so it only
   * matters when the holder dies: the others wait at most this long before one of them takes over.
   * @default 30_000
   */
  lockTtlMs?: number;
  /** Lifetime of a stored value. @default 86_400_000 (one day) */
  valueTtlMs?: number;
  /** How often a waiter re-checks when no notification arrives (a safety net for lost messages). @default 1_000 */
  pollIntervalMs?: number;
  /** Where the subscriber connection reports outages. @default none */
  logger?: Logger;
}

/** Options of one {@link FleetMemo.get}. */
export interface FleetMemoGetOptions {
  /**
   * Advance the key's epoch (Redis INCR) before reading, so this call and every later call on
   * any worker ignores what was stored before: the next reader computes once for the fleet.
   * Each forcing call advances the epoch again, so N concurrent forcing calls compute N times.
   * @default false
   */
  forceRefresh?: boolean;
}

/** A fleet-wide memo; see {@link createFleetMemo}. */
export interface FleetMemo {
  /**
   * Returns the value stored for (key, deps, current epoch), or computes it. Concurrent misses
   * anywhere in the fleet compute once: one caller takes a lock and computes, the others wait
   * for its announcement and read the stored value. If the computing caller fails, its error
   * propagates to it (and to callers in its process that joined the same attempt) and a waiter
   * elsewhere takes over; if it dies, its lock expires and a waiter takes over. Waiters wait as
   * long as the computing caller keeps its lock, i.e. as long as `compute` runs.
   *
   * The result is always the stored JSON read back (a fresh copy, also for the caller that
   * computed it), so every caller sees the same shape.
   *
   * @throws {FleetMemoValueError} when `deps` or the computed value are not plain JSON
   * (deps are checked before anything runs).
   */
  get<T>(
    key: string,
    deps: readonly unknown[],
    compute: () => Promise<T> | T,
    options?: FleetMemoGetOptions,
  ): Promise<T>;
  /** The current epoch of `key` (0 before the first `forceRefresh`). */
  epoch(key: string): Promise<number>;
  /** Closes the subscriber connection the memo opened; the command connection stays open. */
  close(): Promise<void>;
}

const DEFAULT_LOCK_TTL_MS = 30_000;
const DEFAULT_VALUE_TTL_MS = 86_400_000;
const DEFAULT_POLL_INTERVAL_MS = 1_000;

/** Creates a {@link FleetMemo} on `options.connection`. */
export function createFleetMemo(options: FleetMemoOptions): FleetMemo {
  const settings = {
    connection: options.connection,
    prefix: options.prefix ?? DEFAULT_PREFIX,
    lockTtlMs: options.lockTtlMs ?? DEFAULT_LOCK_TTL_MS,
    valueTtlMs: options.valueTtlMs ?? DEFAULT_VALUE_TTL_MS,
    pollIntervalMs: options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS,
  };
  const notifier = new FleetMemoNotifier(settings.connection, options.logger);
  // Callers in this process that miss the same entry at the same time share one attempt.
  const inFlight = new Map<string, Promise<string>>();

  const readEpoch = async (key: string, forceRefresh: boolean): Promise<number> => {
    const epochKey = fleetMemoKeys(settings.prefix, key).epoch;
    if (forceRefresh) return settings.connection.incr(epochKey);
    return Number((await settings.connection.get(epochKey)) ?? 0);
  };

  const computeOnce = async (entry: FleetMemoEntryKeys, compute: () => unknown, what: string) => {
    const lease = await tryAcquireFleetMemoLock(settings.connection, entry.lock, settings.lockTtlMs);
    if (!lease) return undefined;
    try {
      // Another process may have finished between our read and our lock.
      const stored = await settings.connection.get(entry.value);
      if (stored !== null) return stored;
      const text = fleetMemoJson(await compute(), what);
      await settings.connection.set(entry.value, text, 'PX', settings.valueTtlMs);
      return text;
    } finally {
      await lease.release();
      // Wake waiters whether we stored a value or failed: on failure one of them takes over.
      await notifier.notify(entry.channel);
    }
  };

  const settle = async (entry: FleetMemoEntryKeys, compute: () => unknown, what: string): Promise<string> => {
    const stored = await settings.connection.get(entry.value);
    observeMemo({ outcome: stored === null ? 'miss' : 'hit' });
    if (stored !== null) return stored;
    const listener = await notifier.listen(entry.channel);
    try {
      for (;;) {
        const computed = await computeOnce(entry, compute, what);
        if (computed !== undefined) return computed;
        await listener.wait(settings.pollIntervalMs);
        const value = await settings.connection.get(entry.value);
        if (value !== null) return value;
      }
    } finally {
      await listener.stop();
    }
  };

  return {
    async get<T>(
      key: string,
      deps: readonly unknown[],
      compute: () => Promise<T> | T,
      getOptions: FleetMemoGetOptions = {},
    ): Promise<T> {
      const depsHash = createHash('sha256')
        .update(fleetMemoJson(deps, `deps of "${key}"`))
        .digest('hex');
      const epoch = await readEpoch(key, getOptions.forceRefresh ?? false);
      const entry = fleetMemoKeys(settings.prefix, key).entry(epoch, depsHash);
      let attempt = inFlight.get(entry.value);
      if (!attempt) {
        attempt = settle(entry, compute, `value of "${key}"`).finally(() => inFlight.delete(entry.value));
        inFlight.set(entry.value, attempt);
      }
      return JSON.parse(await attempt) as T;
    },
    epoch: (key) => readEpoch(key, false),
    close: () => notifier.close(),
  };
}

/** Portable canonical JSON; a refusal is a {@link FleetMemoValueError}, the fleet memo's own error. */
function fleetMemoJson(value: unknown, what: string): string {
  try {
    return portableJson(value, what);
  } catch (error) {
    if (NonPortableJsonError.is(error)) throw new FleetMemoValueError(what, error.path, error.reason, error);
    throw error;
  }
}
