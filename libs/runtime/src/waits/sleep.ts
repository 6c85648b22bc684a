/**
 * `sleep`: a durable timer. The due time is journaled when the sleep starts, so a replay (after
 * a crash, a restart, or simply the wake-up) waits for the same moment; on a worker the run
 * parks in BullMQ's delayed set until then, holding no slot (`engine/suspend-until.ts`).
 */
import type { AgentContext } from '../context/agent-context.js';
import { requireAgentContext } from '../context/context-store.js';
import { durableStep } from '../engine/durable-step.js';
import { suspendUntil } from '../engine/suspend-until.js';
import { InvalidWaitError } from '../errors/wait-errors.js';
import { refuseInsideTool } from './refuse-inside-tool.js';

/** The longest sleep (and the latest `until`, from now): about 10 years. */
export const MAX_SLEEP_MS = 10 * 365 * 24 * 3600 * 1000;

/** How long to sleep: milliseconds, or until a moment. */
export type SleepDuration = number | { until: Date | number };

/**
 * Sleeps `duration` (ms, or `{ until: Date }`) without holding a worker slot, surviving worker
 * restarts: the run resumes (on any worker) once the time has come, never before. Emits
 * `sleep-started`. A sleep already over (or of 0 ms) returns at once.
 * @throws InvalidWaitError when the duration is not a finite number of ms ≥ 0 (or a valid date), or beyond ~10 years
 * @throws WaitInsideToolError inside a tool handler; ContextNotFoundError outside an agent run
 * @throws AbortError when the run is cancelled (or times out) while it sleeps
 */
export async function sleep(duration: SleepDuration): Promise<void> {
  const context = requireAgentContext('sleep');
  refuseInsideTool('sleep');
  const requested = untilOf(duration);
  const position = context.nextPosition('sleep');
  const { value: until, replayed } = await durableStep(context, {
    kind: 'sleep',
    position,
    // Not the time: `sleep(ms)` computes another due time on every replay; the first one counts.
    fingerprint: 'sleep',
    execute: async () => requested(),
  });
  if (!replayed) context.run.emit({ type: 'sleep-started', callPath: context.callPath, until });
  await durableStep(context, {
    kind: 'sleep',
    position: `${position}/end`,
    fingerprint: 'sleep-end',
    execute: () => sleepUntil(context, until),
  });
}

async function sleepUntil(context: AgentContext, until: number): Promise<number> {
  while (Date.now() < until) {
    await suspendUntil(context, {
      waitingFor: { kind: 'sleep', detail: `until ${new Date(until).toISOString()}` },
      wakeAt: until,
      info: { until },
    });
  }
  return Date.now();
}

/** Checks the duration now; returns when the sleep ends, computed when it starts. */
function untilOf(duration: SleepDuration): () => number {
  if (typeof duration === 'number') {
    if (!Number.isFinite(duration) || duration < 0 || duration > MAX_SLEEP_MS)
      throw new InvalidWaitError(
        'sleep',
        `expected a number of ms from 0 to ${MAX_SLEEP_MS}, got ${duration}`,
      );
    return () => Date.now() + Math.ceil(duration);
  }
  const raw = duration?.until;
  const at = raw instanceof Date ? raw.getTime() : raw;
  if (typeof at !== 'number' || !Number.isFinite(at) || at > Date.now() + MAX_SLEEP_MS)
    throw new InvalidWaitError('sleep', 'expected { until: Date } with a valid date within ~10 years');
  return () => at;
}
