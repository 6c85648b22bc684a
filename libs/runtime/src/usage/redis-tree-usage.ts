/**
 * {@link TreeUsage} in Redis, under the root run's hash tag only (one slot on a cluster):
 * `runKeys(prefix, rootRunId).usage`, a hash with `tokens` and `microUsd` (HINCRBY as each live
 * call settles) and `stats:<runId>` (a run's final usage stats, JSON, read by its parent when it
 * adopts the run's outcome); and `.usageReservations`, the estimates of calls in flight
 * (`reserve-tree-usage-2`). Both expire {@link TREE_USAGE_TTL_SECONDS} after their last write.
 */
import type { Redis } from 'ioredis';
import { runKeys } from '../keys.js';
import type { BudgetLimits } from './budget-options.js';
import { reserveTreeUsageScript } from './lua/reserve-tree-usage-2.lua.js';
import { RESERVATION_TTL_MS, type TreeReservation, type TreeSpend, type TreeUsage } from './tree-usage.js';
import { type UsageStats, usageStatsSchema } from './usage-stats.js';

/** 30 days after the tree's last model call: longer than any run tree is expected to wait. */
export const TREE_USAGE_TTL_SECONDS = 30 * 24 * 3600;

export class RedisTreeUsage implements TreeUsage {
  readonly rootRunId: string;
  readonly #redis: Redis;
  readonly #key: string;
  readonly #reservations: string;

  constructor(options: { redis: Redis; prefix: string; rootRunId: string }) {
    this.rootRunId = options.rootRunId;
    this.#redis = options.redis;
    const keys = runKeys(options.prefix, options.rootRunId);
    this.#key = keys.usage;
    this.#reservations = keys.usageReservations;
  }

  async reserve(id: string, estimate: TreeSpend, limits: BudgetLimits): Promise<TreeReservation> {
    const now = Date.now();
    const reply = (await reserveTreeUsageScript.run(
      this.#redis,
      [this.#key, this.#reservations],
      [
        id,
        Math.max(0, Math.ceil(estimate.tokens)),
        Math.max(0, Math.ceil(estimate.microUsd)),
        limits.maxTokens ?? '',
        limits.maxCostMicroUsd ?? '',
        now,
        now + RESERVATION_TTL_MS,
        TREE_USAGE_TTL_SECONDS,
      ],
    )) as [number, string?, string?, string?, string?];
    if (reply[0] === 1) return { ok: true };
    return {
      ok: false,
      kind: reply[1] === 'cost' ? 'cost' : 'tokens',
      limit: Number(reply[2]),
      spent: Number(reply[3]),
      estimate: Number(reply[4]),
    };
  }

  async settle(spend: TreeSpend, id?: string): Promise<void> {
    // One hash tag: MULTI is atomic on a cluster too.
    const multi = this.#redis
      .multi()
      .hincrby(this.#key, 'tokens', spend.tokens)
      .hincrby(this.#key, 'microUsd', spend.microUsd)
      .expire(this.#key, TREE_USAGE_TTL_SECONDS);
    if (id !== undefined) multi.hdel(this.#reservations, id);
    await multi.exec();
  }

  async release(id: string): Promise<void> {
    await this.#redis.hdel(this.#reservations, id);
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
    const text = await this.#redis.hget(this.#key, `stats:${runId}`);
    if (text === null) return undefined;
    try {
      const parsed = usageStatsSchema.safeParse(JSON.parse(text));
      return parsed.success ? (parsed.data as UsageStats) : undefined;
    } catch {
      return undefined;
    }
  }
}
