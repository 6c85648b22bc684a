/**
 * `suspendUntil`: the engine side of parking a run (ARCHITECTURE.md §9 "Durable waits", "One
 * waiting gate"). Code inside a durable step's `execute` (a wait, a model call that must wait
 * for a rate limit …) calls it when what it needs is not there yet. On a worker the step then
 * counts as blocked, exactly like a pending child call; once every in-flight step of the run
 * is blocked the execution is abandoned (`executeDefinition` resolves with `suspended.waits`),
 * the worker records `waiting` with `waitingFor` and moves the job to BullMQ's delayed set
 * until the earliest `wakeAt` (or a wake-up: `waits/wake-run.ts`), holding no slot. A later
 * execution replays the run from the journal and reaches the same step, which looks again.
 *
 * So the caller must be re-entrant: check its condition, and call `suspendUntil` only when it
 * does not hold; the value it finally returns is journaled by its durable step.
 */
import type { AgentContext } from '../context/agent-context.js';
import { AbortError } from '../errors/run-errors.js';
import { DurableWaitUnavailableError } from '../errors/wait-errors.js';
import type { ParkedWait } from '../gate/waiting-for.js';
import { abortableDelay } from '../shared/abortable-delay.js';
import { abortReason, whenAborted } from '../shared/when-aborted.js';

/**
 * Suspends the current durable step until `wait.wakeAt` or a wake-up.
 * - On a worker (`RunServices.waits` set): never resolves in this execution; rejects with an
 *   AbortError when the agent is cancelled. The run replays later.
 * - Embedded (no worker): resolves at `wakeAt` (an in-process delay), so the caller looks again.
 * @throws DurableWaitUnavailableError embedded, when the wait has no `wakeAt` (nothing could end it)
 */
export function suspendUntil(context: AgentContext, wait: ParkedWait): Promise<void> {
  const { run, signal } = context;
  if (!run.services.waits) {
    if (wait.wakeAt === undefined)
      return Promise.reject(new DurableWaitUnavailableError(wait.waitingFor.kind));
    return abortableDelay(wait.wakeAt - Date.now(), signal);
  }
  run.pendingWaits.push(wait);
  run.steps.blockCurrent();
  return whenAborted(signal).then(() => {
    throw new AbortError(abortReason(signal));
  });
}

/** The earliest `wakeAt` of `waits`, if any is due by itself. */
export function earliestWakeAt(waits: readonly ParkedWait[]): number | undefined {
  let earliest: number | undefined;
  for (const { wakeAt } of waits)
    if (wakeAt !== undefined && (earliest === undefined || wakeAt < earliest)) earliest = wakeAt;
  return earliest;
}
