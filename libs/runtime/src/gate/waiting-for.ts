/**
 * The one waiting gate (ARCHITECTURE.md §9): a run that waits for something other than a worker
 * slot holds no slot, waits in one keyed mechanism, and says on its record what it waits for.
 * Each kind of wait is one `kind` here: `conversation` (a run ahead on the conversation) and
 * `worker` (no live worker serves the run's agent; its job waits in the agent's queue, see
 * `jobs/agent-queues.ts`). Concurrency caps, rate limits and durable waits are meant to be added
 * as kinds, reusing the parking in `worker/park-at-gate.ts`.
 */
import { z } from 'zod';

/**
 * What kinds of thing a run can wait for at the gate: THE list. A new kind is added here (the
 * record schema, the waiting-run counts and their metric labels follow), then parked with
 * `parkAtGate` / `RedisRunRecords.park`.
 */
export const WAIT_KINDS = ['conversation', 'worker'] as const;

/** What kinds of thing a run can wait for at the gate. */
export type WaitKind = (typeof WAIT_KINDS)[number];

/** The label of a kind outside {@link WAIT_KINDS} (a record written by a newer release). */
export const UNKNOWN_WAIT_KIND = 'unknown';

/** `kind` when it is one of {@link WAIT_KINDS}, else {@link UNKNOWN_WAIT_KIND}: a bounded label. */
export function waitKindLabel(kind: string): WaitKind | typeof UNKNOWN_WAIT_KIND {
  return (WAIT_KINDS as readonly string[]).includes(kind) ? (kind as WaitKind) : UNKNOWN_WAIT_KIND;
}

/** What a queued run waits for (`RunRecord.waitingFor`); gone once it runs. */
export interface WaitingFor {
  kind: WaitKind;
  /**
   * For `conversation`: the conversation id and the run ahead of it, as `<conversationId> (after
   * run <runId>)`; for `worker`: the agent id no live worker serves.
   */
  detail: string;
}

/** How a stored `waitingFor` is read back (the record is a boundary). */
export const waitingForSchema = z.object({
  kind: z.enum(WAIT_KINDS),
  detail: z.string().max(1024),
});

/**
 * What a submission on a conversation does when another run holds it or waits for it
 * (LangGraph's multitask strategies):
 * - `enqueue` (default): run after every run submitted before it, one at a time;
 * - `reject`: end `failed` with `ConversationBusyError` at submit, before any job or model call;
 * - `interrupt`: cancel every run ahead of it (the running one stores its unfinished turn,
 *   closed: unanswered tool calls get an "interrupted" result), then run;
 * - `rollback`: like `interrupt`, but the cancelled runs' unfinished turns are discarded.
 */
export type OnConflict = 'enqueue' | 'reject' | 'interrupt' | 'rollback';

export const onConflictSchema = z.enum(['enqueue', 'reject', 'interrupt', 'rollback'], {
  error: "must be one of 'enqueue', 'reject', 'interrupt', 'rollback'",
});
