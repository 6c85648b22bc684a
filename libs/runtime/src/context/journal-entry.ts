/** What a run's journal holds: one recorded durable effect per deterministic position. */
import type { SerializedError } from '../errors/serialize-error.js';
import type { UsageStats } from '../usage/usage-stats.js';

/**
 * The kinds of durable effect the journal records. `conversation-load` pins the conversation
 * version a run started from, so a replay reads the same history even after its own appends.
 * `progress` marks a `reportProgress` call as done, so a replay does not emit it again.
 * `context-summary` records a summary the context budget had written (`equipContextBudget`), so
 * a replay or another worker never summarises the same history again.
 * `approval`, `signal` and `sleep` hold the outcome of a durable wait (`waits/`): a person's
 * answer, the signal taken (or its timeout), a sleep's due time.
 * `patch` is the marker of a `patched(changeId)` call that took the new path (`hooks/patched.ts`):
 * it sits at `<generation>/patch:<changeId>`, outside the numbered positions, so it never
 * shifts the positions of the calls after it. `tool-usage` marks a `recordToolUsage` record as
 * counted (its stats in `usage`), so a replay does not count it again.
 */
export type JournalEntryKind =
  | 'model-turn'
  | 'tool'
  | 'child'
  | 'memo'
  | 'reborn'
  | 'conversation-load'
  | 'conversation-append'
  | 'progress'
  | 'context-summary'
  | 'approval'
  | 'signal'
  | 'sleep'
  | 'patch'
  | 'tool-usage';

/** One durable effect recorded at a deterministic position, e.g. `root/agent:writer:0/g0/model:2`. */
export interface JournalEntry {
  kind: JournalEntryKind;
  /** What was asked (agent id, tool name + args hash, …); replay compares it → NonDeterminismError. */
  fingerprint: string;
  outcome: { ok: true; value: unknown /* JSON */ } | { ok: false; error: SerializedError };
  /** Epoch milliseconds. */
  at: number;
  /**
   * The usage the step spent (a live model call, a summary, a child run's whole usage), so a
   * replay rebuilds `getUsageStats()` without recording it again. @default none
   */
  usage?: UsageStats;
  /**
   * For a live model turn: its integer costs, when it had any (its tokens are in the response),
   * so a replay rebuilds its usage exactly. @default none
   */
  costs?: Record<string, number>;
  /** With `usage`, for a tool execution: the part recorded as the agent's own (`recordToolUsage`). @default none */
  ownUsage?: UsageStats;
}

/**
 * A run's journal as loaded: its entries by position and, beside them (never as entries a
 * durable step could serve), the positions of the durable steps the run's latest execution
 * suspended on — steps it reached that have no entry yet (a pending child call, a wait). A
 * plain Map (a journal that records no suspensions) has none.
 */
export type LoadedJournal = Map<string, JournalEntry> & {
  /** Positions reached without an entry: `patched()` counts them as recorded past its point. */
  readonly pendingSteps?: ReadonlySet<string>;
};

/** Options of {@link RunJournal.record}. */
export interface RecordOptions {
  /** See {@link RunJournal.record}. @default false */
  deferred?: boolean;
  /**
   * The entry's JSON text when the caller wrote it already (`context/journal-entry-text.ts`:
   * a durable step reuses its value's text); a journal that stores text stores this. @default none
   */
  text?: string;
}

/** The durable log of one run. */
export interface RunJournal {
  /** The whole journal of the run (all generations), keyed by position, with its pending steps. */
  load(): Promise<LoadedJournal>;
  /**
   * Records an entry; the first write at a position wins (HSETNX semantics). `deferred`: the
   * entry may reach storage with the run's next write instead of before this resolves (a model
   * turn's: lost in a crash, it is called again on replay); a journal that cannot defer writes
   * it now.
   */
  record(position: string, entry: JournalEntry, options?: RecordOptions): Promise<void>;
  /**
   * Resolves once every deferred entry is stored: called before an effect that must not run
   * twice. @default none: nothing is ever deferred
   */
  settle?(): Promise<void>;
}
