/**
 * The spend counted against `equipBudget` limits, fleet-wide. Each limit has a scope (the
 * invocation that set it and everything under it, on any worker); a live model call made under
 * limits reserves its estimate in every scope it is under before it goes (so calls in flight
 * count against each other), and settles its real usage after. On a worker the counters are
 * Redis hashes under the root run's tag (`redis-tree-usage.ts`); embedded, the run is the tree
 * and they live in memory. Calls under no limit write nothing.
 */
import type { BudgetLimitKind } from '../errors/budget-errors.js';
import type { ScopedLimit } from './budget-options.js';
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
      /** The limit that refused it. */
      refusedBy: ScopedLimit;
      kind: BudgetLimitKind;
      limit: number;
      /** The scope's spend plus what calls in flight reserved in it. */
      spent: number;
      estimate: number;
    };

/** How long a reservation holds when its call never settles (its worker died): 15 minutes. */
export const RESERVATION_TTL_MS = 15 * 60 * 1000;

export interface TreeUsage {
  /** The root run of the tree. */
  readonly rootRunId: string;
  /**
   * Reserves `estimate` under `id` in every scope of `limits`, unless in one of them the spend,
   * what calls in flight reserved and `estimate` would pass a limit (tokens over `maxTokens`;
   * micro-USD over `maxCostMicroUsd`, or already at it).
   */
  reserve(id: string, estimate: TreeSpend, limits: readonly ScopedLimit[]): Promise<TreeReservation>;
  /** Adds real spend to `scopes`, dropping reservation `id` from them if it had one. */
  settle(spend: TreeSpend, scopes: readonly string[], id?: string): Promise<void>;
  /** Drops reservation `id` from `scopes` (its call failed). */
  release(id: string, scopes: readonly string[]): Promise<void>;
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
  readonly #spent = new Map<string, TreeSpend>();
  /** `<id>|<scope>` → estimate. */
  readonly #reserved = new Map<string, TreeSpend>();
  readonly #stats = new Map<string, UsageStats>();

  constructor(rootRunId: string) {
    this.rootRunId = rootRunId;
  }

  async reserve(id: string, estimate: TreeSpend, limits: readonly ScopedLimit[]): Promise<TreeReservation> {
    for (const limit of limits) {
      const held = { ...(this.#spent.get(limit.scope) ?? { tokens: 0, microUsd: 0 }) };
      for (const [key, reserved] of this.#reserved) {
        if (!key.endsWith(`|${limit.scope}`)) continue;
        held.tokens += reserved.tokens;
        held.microUsd += reserved.microUsd;
      }
      const refusal = refusalOf(limit, held, estimate);
      if (refusal) return refusal;
    }
    for (const limit of limits) this.#reserved.set(`${id}|${limit.scope}`, { ...estimate });
    return { ok: true };
  }

  async settle(spend: TreeSpend, scopes: readonly string[], id?: string): Promise<void> {
    for (const scope of scopes) {
      if (id !== undefined) this.#reserved.delete(`${id}|${scope}`);
      const spent = this.#spent.get(scope) ?? { tokens: 0, microUsd: 0 };
      this.#spent.set(scope, {
        tokens: spent.tokens + spend.tokens,
        microUsd: spent.microUsd + spend.microUsd,
      });
    }
  }

  async release(id: string, scopes: readonly string[]): Promise<void> {
    for (const scope of scopes) this.#reserved.delete(`${id}|${scope}`);
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

/** The rule of {@link TreeUsage.reserve} for one scope (the Redis script applies the same). */
function refusalOf(limit: ScopedLimit, held: TreeSpend, estimate: TreeSpend): TreeReservation | undefined {
  if (limit.maxTokens !== undefined && held.tokens + estimate.tokens > limit.maxTokens)
    return {
      ok: false,
      refusedBy: limit,
      kind: 'tokens',
      limit: limit.maxTokens,
      spent: held.tokens,
      estimate: estimate.tokens,
    };
  const max = limit.maxCostMicroUsd;
  if (max !== undefined && (held.microUsd >= max || held.microUsd + estimate.microUsd > max))
    return {
      ok: false,
      refusedBy: limit,
      kind: 'cost',
      limit: max,
      spent: held.microUsd,
      estimate: estimate.microUsd,
    };
  return undefined;
}
