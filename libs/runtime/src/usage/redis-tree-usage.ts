/**
 * {@link TreeUsage} in Redis: one hash per tree, `runKeys(prefix, rootRunId).usage`, so every
 * write touches the root's hash tag only (one slot on a cluster). Fields: `tokens` and
 * `microUsd` (HINCRBY after each live model call of any run of the tree), and `stats:<runId>`
 * (a run's final usage stats, JSON, read by its parent when it adopts the run's outcome). The
 * hash expires {@link TREE_USAGE_TTL_SECONDS} after its last write.
 */
import type { Redis } from 'ioredis';
import { runKeys } from '../keys.js';
import type { TreeSpend, TreeUsage } from './tree-usage.js';
import { type UsageStats, usageStatsSchema } from './usage-stats.js';

/** 30 days after the tree's last model call: longer than any run tree is expected to wait. */
export const TREE_USAGE_TTL_SECONDS = 30 * 24 * 3600;

export class RedisTreeUsage implements TreeUsage {
  readonly rootRunId: string;
  readonly #redis: Redis;
  readonly #key: string;

  constructor(options: { redis: Redis; prefix: string; rootRunId: string }) {
    this.rootRunId = options.rootRunId;
    this.#redis = options.redis;
    this.#key = runKeys(options.prefix, options.rootRunId).usage;
  }

  async spent(): Promise<TreeSpend> {
    const [tokens, microUsd] = await this.#redis.hmget(this.#key, 'tokens', 'microUsd');
    return { tokens: Number(tokens ?? 0), microUsd: Number(microUsd ?? 0) };
  }

  async add(spend: TreeSpend): Promise<void> {
    // One key: MULTI is atomic on a cluster too.
    await this.#redis
      .multi()
      .hincrby(this.#key, 'tokens', spend.tokens)
      .hincrby(this.#key, 'microUsd', spend.microUsd)
      .expire(this.#key, TREE_USAGE_TTL_SECONDS)
      .exec();
  }

  async storeRunStats(runId: string, stats: UsageStats): Promise<void> {
    await this.#redis
      .multi()
      .hset(this.#key, `stats:${runId}`, JSON.stringify(stats))
      .expire(this.#key, TREE_USAGE_TTL_SECONDS)
      .exec();
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
