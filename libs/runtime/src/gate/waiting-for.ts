/**
 * The one waiting gate (ARCHITECTURE.md §9): a run that waits for something other than a worker
 * slot holds no slot, waits in one keyed mechanism, and says on its record what it waits for.
 * Each kind of wait is one `kind` here: `conversation` (a run ahead on the conversation) and
 * `worker` (no live worker serves the run's agent; its job waits in the agent's queue, see
 * `jobs/agent-queues.ts`), `concurrency` (the agent's concurrency cap is full, see
 * `gate/concurrency-gate.ts`) and `rate-limit` (a model call waits for its provider/model's
 * fleet-wide budget, see `limits/await-model-budget.ts`). Parked kinds reuse
 * `worker/park-at-gate.ts`.
 */
import { z } from 'zod';

/** What kinds of thing a run can wait for at the gate. */
export type WaitKind = 'conversation' | 'worker' | 'concurrency' | 'rate-limit';

/** What a queued run waits for (`RunRecord.waitingFor`); gone once it runs. */
export interface WaitingFor {
  kind: WaitKind;
  /**
   * For `conversation`: the conversation id and the run ahead of it, as `<conversationId> (after
   * run <runId>)`; for `worker`: the agent id no live worker serves; for `concurrency`: the
   * agent, its cap key and limit, as `<agentId> key <key> (limit <n>)`; for `rate-limit`: the
   * provider/model and why, as `openai/gpt-4.1-mini (rpm 600, tpm 100000)` or
   * `… (paused by a 429 for 2000 ms)`.
   */
  detail: string;
}

/** How a stored `waitingFor` is read back (the record is a boundary). */
export const waitingForSchema = z.object({
  kind: z.enum(['conversation', 'worker', 'concurrency', 'rate-limit']),
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
