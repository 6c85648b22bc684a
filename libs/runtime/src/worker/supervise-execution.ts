import { errorGuard, FlotillaError } from '@flotilla/ir';
import { setLongTimer } from '../shared/long-timer.js';
import type { ExecutionFence } from './execution-fence.js';

/**
 * The worker handed the run back to the queue (its shutdown grace period ended while the run
 * was still executing): another worker replays it. Never ends a run; the worker moves the job
 * back to wait.
 */
export class RunHandedBackError extends FlotillaError {
  static override readonly errorName = 'RunHandedBackError';
  static override readonly is = errorGuard(this);

  constructor(runId: string) {
    super(
      `Run "${runId}" was handed back to the queue by a worker shutting down; another worker replays it.`,
    );
  }
}

/** What {@link superviseExecution} watches besides the execution. */
export interface Supervision {
  /** Aborted by a cancel, or by the deadline timer here (with the reason `onDeadline` gives). */
  controller: AbortController;
  /** Epoch ms; at it the controller aborts with `onDeadline()`. @default none */
  deadline?: number | undefined;
  onDeadline: () => Error;
  /** How long an aborted execution may take to end by itself before it is abandoned. */
  graceMs: number;
  fence: ExecutionFence;
  /** Aborted (with a {@link RunHandedBackError}) to abandon the execution at once. @default never */
  handBack?: AbortSignal;
}

/**
 * Waits for `execution`, but never longer than `graceMs` after the controller aborts (a cancel,
 * or the deadline): past that the execution is abandoned (its writes refused from then on, see
 * {@link ExecutionFence}) and this rejects with the abort reason, so the worker ends the run and
 * frees its slot even when the code never returns.
 */
export async function superviseExecution<T>(execution: Promise<T>, supervision: Supervision): Promise<T> {
  const { controller, deadline, graceMs, fence } = supervision;
  const { signal } = controller;
  // Whatever the abandoned execution does later is not ours to handle.
  execution.catch(() => {});
  const timers: { clear(): void }[] = [];
  let onAbort: (() => void) | undefined;
  const abandoned = new Promise<never>((_, reject) => {
    const handBack = supervision.handBack;
    handBack?.addEventListener(
      'abort',
      () => {
        fence.abandon();
        // Code that still checks its signal stops at its next step.
        controller.abort(handBack.reason);
        reject(handBack.reason);
      },
      { once: true },
    );
    const abandonLater = () => {
      timers.push(
        setLongTimer(() => {
          fence.abandon();
          reject(signal.reason);
        }, graceMs),
      );
    };
    if (signal.aborted) abandonLater();
    else {
      onAbort = abandonLater;
      signal.addEventListener('abort', onAbort, { once: true });
    }
  });
  abandoned.catch(() => {}); // settles only while raced below; never unhandled
  if (deadline !== undefined && !signal.aborted) {
    timers.push(setLongTimer(() => controller.abort(supervision.onDeadline()), deadline - Date.now()));
  }
  try {
    return await Promise.race([execution, abandoned]);
  } finally {
    for (const timer of timers) timer.clear();
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}
