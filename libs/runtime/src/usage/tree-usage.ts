/**
 * The spend of a whole run tree (root run and every descendant, on any worker): what the
 * limits of `equipBudget` are checked against before each live model call. On a worker it is
 * Redis hashes under the root run's tag (`redis-tree-usage.ts`); embedded, the run is the tree
 * and it lives in memory. A call reserves its estimate before it goes (so calls in flight at
 * once count against each other) and settles its real usage after.
 */
import type { BudgetLimitKind } from '../errors/budget-errors.js';
import type { BudgetLimits } from './budget-options.js';
import type { UsageStats } from './usage-stats.js';

/** Tokens and micro-USD spent (or estimated) by live model calls. */
export interface TreeSpend {
  tokens: number;
  microUsd: number;
}

/** The answer to a reservation. */
export type TreeReservation =
  | { ok: true }
  | {
      ok: false;
      kind: BudgetLimitKind;
      limit: number;
      /** The tree's spend plus what calls in flight reserved. */
      spent: number;
      estimate: number;
    };

/** How long a reservation holds when its call never settles (its worker died): 15 minutes. */
export const RESERVATION_TTL_MS = 15 * 60 * 1000;

export interface TreeUsage {
  /** The root run of the tree. */
  readonly rootRunId: string;
  /**
   * Reserves `estimate` under `id` unless the tree's spend, what calls in flight reserved and
   * `estimate` would pass a limit (tokens over `maxTokens`; micro-USD over `maxCostMicroUsd`, or
   * already at it).
   */
  reserve(id: string, estimate: TreeSpend, limits: BudgetLimits): Promise<TreeReservation>;
  /** Adds a call's (or a tool record's) real spend, dropping its reservation `id` if it had one. */
  settle(spend: TreeSpend, id?: string): Promise<void>;
  /** Drops reservation `id` (its call failed: nothing was spent that the tree will be told of). */
  release(id: string): Promise<void>;
  /** Keeps a run's final usage stats for its parent (a child run on another worker). */
  storeRunStats(runId: string, stats: UsageStats): Promise<void>;
  /** A run's stored stats, checked; `undefined` when none (or unreadable) are stored. */
  runStats(runId: string): Promise<UsageStats | undefined>;
  /** Forgets a run's stored stats (its parent journaled them). */
  dropRunStats(runId: string): Promise<void>;
}

/** The tree of an embedded run: the run itself, in memory. */
export class InMemoryTreeUsage implements TreeUsage {
  readonly rootRunId: string;
  readonly #spent: TreeSpend = { tokens: 0, microUsd: 0 };
  readonly #reserved = new Map<string, TreeSpend>();
  readonly #stats = new Map<string, UsageStats>();

  constructor(rootRunId: string) {
    this.rootRunId = rootRunId;
  }

  async reserve(id: string, estimate: TreeSpend, limits: BudgetLimits): Promise<TreeReservation> {
    const held = { ...this.#spent };
    for (const reserved of this.#reserved.values()) {
      held.tokens += reserved.tokens;
      held.microUsd += reserved.microUsd;
    }
    const refusal = refusalOf(held, estimate, limits);
    if (refusal) return refusal;
    this.#reserved.set(id, { ...estimate });
    return { ok: true };
  }

  async settle(spend: TreeSpend, id?: string): Promise<void> {
    if (id !== undefined) this.#reserved.delete(id);
    this.#spent.tokens += spend.tokens;
    this.#spent.microUsd += spend.microUsd;
  }

  async release(id: string): Promise<void> {
    this.#reserved.delete(id);
  }

  async storeRunStats(runId: string, stats: UsageStats): Promise<void> {
    this.#stats.set(runId, structuredClone(stats));
  }

  async runStats(runId: string): Promise<UsageStats | undefined> {
    const stats = this.#stats.get(runId);
    return stats && structuredClone(stats);
  }

  async dropRunStats(runId: string): Promise<void> {
    this.#stats.delete(runId);
  }
}

/** The rule of {@link TreeUsage.reserve} (the Redis script applies the same). */
function refusalOf(held: TreeSpend, estimate: TreeSpend, limits: BudgetLimits): TreeReservation | undefined {
  if (limits.maxTokens !== undefined && held.tokens + estimate.tokens > limits.maxTokens)
    return {
      ok: false,
      kind: 'tokens',
      limit: limits.maxTokens,
      spent: held.tokens,
      estimate: estimate.tokens,
    };
  const max = limits.maxCostMicroUsd;
  if (max !== undefined && (held.microUsd >= max || held.microUsd + estimate.microUsd > max))
    return { ok: false, kind: 'cost', limit: max, spent: held.microUsd, estimate: estimate.microUsd };
  return undefined;
}
