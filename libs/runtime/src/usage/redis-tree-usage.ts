/**
 * {@link TreeUsage} in Redis, under the root run's hash tag only (one slot on a cluster):
 * `runKeys(prefix, rootRunId).usage`, a hash with `t:<scope>` and `c:<scope>` (tokens and
 * micro-USD spent under each limit's scope, HINCRBY as calls settle) and `stats:<runId>` (a
 * child run's final usage stats, JSON, until its parent journaled them); and
 * `.usageReservations`, the estimates of calls in flight (`reserve-tree-usage-2`). Both expire
 * {@link TREE_USAGE_TTL_SECONDS} after their last write. Trees without limits write only stats.
 */
import type { Redis } from 'ioredis';
import { runKeys } from '../keys.js';
import { TickBatch } from '../shared/tick-batch.js';
import type { ScopedLimit } from './budget-options.js';
import { reserveTreeUsageScript } from './lua/reserve-tree-usage-2.lua.js';
import { RESERVATION_TTL_MS, type TreeReservation, type TreeSpend, type TreeUsage } from './tree-usage.js';
import { type UsageStats, usageStatsSchema } from './usage-stats.js';

/** 30 days after the tree's last write: longer than any run tree is expected to wait. */
export const TREE_USAGE_TTL_SECONDS = 30 * 24 * 3600;

export class RedisTreeUsage implements TreeUsage {
  readonly rootRunId: string;
  readonly #redis: Redis;
  readonly #key: string;
  readonly #reservations: string;
  /** Stats read in one tick (a replayed fan-out's children): one HMGET, not one HGET each. */
  readonly #statsReads = new TickBatch<string, string | null>((runIds) =>
    this.#redis.hmget(this.#key, ...runIds.map((runId) => `stats:${runId}`)),
  );

  constructor(options: { redis: Redis; prefix: string; rootRunId: string }) {
    this.rootRunId = options.rootRunId;
    this.#redis = options.redis;
    const keys = runKeys(options.prefix, options.rootRunId);
    this.#key = keys.usage;
    this.#reservations = keys.usageReservations;
  }

  async reserve(id: string, estimate: TreeSpend, limits: readonly ScopedLimit[]): Promise<TreeReservation> {
    const now = Date.now();
    const args: (string | number)[] = [
      id,
      Math.max(0, Math.ceil(estimate.tokens)),
      Math.max(0, Math.ceil(estimate.microUsd)),
      now,
      now + RESERVATION_TTL_MS,
      TREE_USAGE_TTL_SECONDS,
      limits.length,
    ];
    for (const limit of limits) args.push(limit.scope, limit.maxTokens ?? '', limit.maxCostMicroUsd ?? '');
    const reply = (await reserveTreeUsageScript.run(this.#redis, [this.#key, this.#reservations], args)) as [
      number,
      string?,
      string?,
      string?,
      string?,
      number?,
    ];
    const refusedBy = limits[(reply[5] ?? 1) - 1];
    if (reply[0] === 1 || !refusedBy) return { ok: true };
    return {
      ok: false,
      refusedBy,
      kind: reply[1] === 'cost' ? 'cost' : 'tokens',
      limit: Number(reply[2]),
      spent: Number(reply[3]),
      estimate: Number(reply[4]),
    };
  }

  async settle(spend: TreeSpend, scopes: readonly string[], id?: string): Promise<void> {
    if (scopes.length === 0) return;
    // One hash tag: MULTI is atomic on a cluster too.
    const multi = this.#redis.multi();
    for (const scope of scopes) {
      multi.hincrby(this.#key, `t:${scope}`, spend.tokens).hincrby(this.#key, `c:${scope}`, spend.microUsd);
      if (id !== undefined) multi.hdel(this.#reservations, `${id}|${scope}`);
    }
    await multi.expire(this.#key, TREE_USAGE_TTL_SECONDS).exec();
  }

  async release(id: string, scopes: readonly string[]): Promise<void> {
    if (scopes.length === 0) return;
    await this.#redis.hdel(this.#reservations, ...scopes.map((scope) => `${id}|${scope}`));
  }

  async storeRunStats(runId: string, stats: UsageStats): Promise<void> {
    await this.#redis
      .multi()
      .hset(this.#key, `stats:${runId}`, JSON.stringify(stats))
      .expire(this.#key, TREE_USAGE_TTL_SECONDS)
      .exec();
  }

  async dropRunStats(runId: string): Promise<void> {
    await this.#redis.hdel(this.#key, `stats:${runId}`);
  }

  async runStats(runId: string): Promise<UsageStats | undefined> {
    const text = await this.#statsReads.add(runId);
    if (text === null) return undefined;
    try {
      const parsed = usageStatsSchema.safeParse(JSON.parse(text));
      return parsed.success ? (parsed.data as UsageStats) : undefined;
    } catch {
      return undefined;
    }
  }
}
