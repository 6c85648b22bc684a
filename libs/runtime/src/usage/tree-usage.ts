/**
 * The spend of a whole run tree (root run and every descendant, on any worker): what the
 * limits of `equipBudget` are checked against before each live model call. On a worker it is
 * one Redis hash under the root run's tag (`redis-tree-usage.ts`); embedded, the run is the
 * tree and it lives in memory.
 */
import type { UsageStats } from './usage-stats.js';

/** Tokens and micro-USD spent by a tree's live model calls. */
export interface TreeSpend {
  tokens: number;
  microUsd: number;
}

export interface TreeUsage {
  /** The root run of the tree. */
  readonly rootRunId: string;
  /** What the tree spent so far. */
  spent(): Promise<TreeSpend>;
  /** Adds one live model call's spend. */
  add(spend: TreeSpend): Promise<void>;
  /** Keeps a run's final usage stats for its parent (a child run on another worker). */
  storeRunStats(runId: string, stats: UsageStats): Promise<void>;
  /** A run's stored stats, checked; `undefined` when none (or unreadable) are stored. */
  runStats(runId: string): Promise<UsageStats | undefined>;
}

/** The tree of an embedded run: the run itself, in memory. */
export class InMemoryTreeUsage implements TreeUsage {
  readonly rootRunId: string;
  readonly #spent: TreeSpend = { tokens: 0, microUsd: 0 };
  readonly #stats = new Map<string, UsageStats>();

  constructor(rootRunId: string) {
    this.rootRunId = rootRunId;
  }

  async spent(): Promise<TreeSpend> {
    return { ...this.#spent };
  }

  async add(spend: TreeSpend): Promise<void> {
    this.#spent.tokens += spend.tokens;
    this.#spent.microUsd += spend.microUsd;
  }

  async storeRunStats(runId: string, stats: UsageStats): Promise<void> {
    this.#stats.set(runId, structuredClone(stats));
  }

  async runStats(runId: string): Promise<UsageStats | undefined> {
    const stats = this.#stats.get(runId);
    return stats && structuredClone(stats);
  }
}
