/**
 * The one waiting gate (ARCHITECTURE.md §9): a run that waits for something other than a worker
 * slot holds no slot, waits in one keyed mechanism, and says on its record what it waits for.
 * Each kind of wait is one `kind` here: `conversation` (a run ahead on the conversation),
 * `worker` (no live worker serves the run's agent; its job waits in the agent's queue, see
 * `jobs/agent-queues.ts`), `concurrency` (the agent's concurrency cap is full, see
 * `gate/concurrency-gate.ts`), `rate-limit` (a model call waits for its provider/model's
 * fleet-wide budget, see `limits/await-model-budget.ts`), and the durable waits of a run's own
 * code (`engine/suspend-until.ts`): `approval` (a tool call awaits a person), `signal`
 * (`waitForSignal`) and `sleep`; `build`: a run pinned to a build (worker versioning) that no
 * live worker of that build or a compatible one can resume (`runs/build-wait.ts`).
 */
import { z } from 'zod';

/**
 * What kinds of thing a run can wait for at the gate: THE list. A new kind is added here (the
 * record schema, the waiting-run counts and their metric labels follow), then parked with
 * `parkAtGate` / `RedisRunRecords.park`.
 */
export const WAIT_KINDS = [
  'conversation',
  'worker',
  'concurrency',
  'rate-limit',
  'approval',
  'signal',
  'sleep',
  'build',
] as const;

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
   * run <runId>)`; for `worker`: the agent id no live worker serves; for `concurrency`: the
   * agent, its cap key and limit, as `<agentId> key <key> (limit <n>)`; for `rate-limit`: the
   * provider/model and why, as `openai/gpt-4.1-mini (rpm 600, tpm 100000)` or
   * `… (paused by a 429 for 2000 ms)`; for `approval`, `signal` and `sleep`: what the run's code
   * waits for (the tool call, the signal name, the due time), and the conversation it keeps
   * while it waits, if any; for `build`: the build the run is pinned to.
   */
  detail: string;
}

/** The longest `detail` a record keeps (longer ones are cut). */
export const MAX_WAIT_DETAIL_LENGTH = 1024;

/** How a stored `waitingFor` is read back (the record is a boundary). */
export const waitingForSchema = z.object({
  kind: z.enum(WAIT_KINDS),
  detail: z.string().max(MAX_WAIT_DETAIL_LENGTH),
});

/**
 * One wait of a run's suspended execution (`engine/suspend-until.ts`): what it waits for, when it
 * is due by itself (`wakeAt`, epoch ms: a sleep's end, a signal's timeout), and what a person
 * needs to answer it (`info`: for `approval` `{ callId, tool, args }`, for `signal`
 * `{ name, schema? }`, for `sleep` `{ until }`). A run may wait for several things at once
 * (parallel tool calls each awaiting approval): its record lists them all in `waits`.
 */
export interface ParkedWait {
  waitingFor: WaitingFor;
  wakeAt?: number;
  info?: Record<string, unknown>;
}

/** How a stored list of waits is read back (the record is a boundary). */
export const parkedWaitsSchema = z
  .array(
    z.object({
      waitingFor: waitingForSchema,
      wakeAt: z.number().optional(),
      info: z.record(z.string(), z.unknown()).optional(),
    }),
  )
  .max(1000);

/**
 * The one `waitingFor` a record shows for `waits`: the only one, or the earliest-listed kind
 * with every detail joined (cut to {@link MAX_WAIT_DETAIL_LENGTH}).
 */
export function summarizeWaits(waits: readonly ParkedWait[]): WaitingFor | undefined {
  const [first] = waits;
  if (!first) return undefined;
  if (waits.length === 1) return cut(first.waitingFor);
  const details = waits.map((wait) =>
    wait.waitingFor.kind === first.waitingFor.kind
      ? wait.waitingFor.detail
      : `${wait.waitingFor.kind}: ${wait.waitingFor.detail}`,
  );
  return cut({ kind: first.waitingFor.kind, detail: `${waits.length} waits: ${details.join('; ')}` });
}

function cut(waitingFor: WaitingFor): WaitingFor {
  const { detail } = waitingFor;
  if (detail.length <= MAX_WAIT_DETAIL_LENGTH) return waitingFor;
  return { kind: waitingFor.kind, detail: `${detail.slice(0, MAX_WAIT_DETAIL_LENGTH - 1)}…` };
}

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
