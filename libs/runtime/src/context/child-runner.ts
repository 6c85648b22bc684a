/**
 * The contract between the engine and whatever runs child agents as separate runs (the
 * worker's BullMQ child jobs). Without a {@link ChildRunner} in `RunServices` (embedded mode)
 * children run in-process inside the parent's run, as nested agent contexts.
 *
 * The engine keeps the journal: a child call whose position is recorded never reaches the
 * runner. Otherwise the runner reports the child run's state; a finished child is recorded in
 * the parent's journal by the engine (which also covers a crash between the child finishing
 * and the parent recording it), a pending one makes the call wait, so the run can suspend.
 */

import type { TokenUsage } from '@flotilla/ir';
import type { SerializedError } from '../errors/serialize-error.js';
import type { UsageStats } from '../usage/usage-stats.js';
import type { AgentContext } from './agent-context.js';
import type { AgentDefinition } from './agent-definition.js';
import type { JournalEntry } from './journal-entry.js';

/** One child call the runner is asked about. */
export interface ChildCall {
  /** The calling agent invocation. */
  parent: AgentContext;
  definition: AgentDefinition;
  /** The child's props (JSON). */
  props: unknown;
  /** The call's journal position, which is also the child's callPath. */
  position: string;
  /** What the parent asks for (agent id + props hash); a child run started for other props is non-determinism. */
  fingerprint: string;
  /** 0, or the number of earlier child runs at this position that failed transiently (see {@link ChildResolution}). */
  attempt: number;
}

/** Where a child call stands. */
export type ChildResolution =
  | {
      /** The child run ended; the engine records `outcome` at the position. */
      state: 'finished';
      childRunId: string;
      outcome: JournalEntry['outcome'];
      /** Usage of the child's whole subtree, rolled up into the parent. */
      usage: TokenUsage;
      modelCalls: number;
      /** The child run's `getUsageStats().aggregate` as it ended (items and costs), when it stored it. */
      stats?: UsageStats;
    }
  | {
      /**
       * The child run failed in a way that is not its outcome (its resource owner's worker died):
       * the engine records a new attempt and asks again, which starts a fresh child run.
       */
      state: 'retry';
      childRunId: string;
      /** The transient failure; thrown at the await once `MAX_CHILD_RUN_ATTEMPTS` runs failed so. */
      error: SerializedError;
    }
  | {
      /** The child run is queued or running; `enqueued` when this call enqueued it. */
      state: 'pending';
      childRunId: string;
      enqueued: boolean;
    };

/** Runs child agents as separate runs (worker mode). */
export interface ChildRunner {
  /** Child calls one run may make. @default 1000 */
  readonly maxChildrenPerRun: number;
  /**
   * Reports the child run of `call`, enqueuing it (idempotently, by its deterministic id) when
   * it does not exist yet.
   * @throws NonDeterminismError when the child run at this position was started for another request
   */
  resolve(call: ChildCall): Promise<ChildResolution>;
}

// A child run's placement travels in its job data, where it is validated: its schema lives there.
export type { RunPlacement } from '../jobs/run-placement-schema.js';
