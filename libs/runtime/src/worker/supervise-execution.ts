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

/**
 * The switch that abandons one execution at once (the worker's shutdown, a superseded attempt):
 * one listener, not an AbortController and its signal and event per execution.
 */
export class HandBack {
  #fired = false;
  #listener: ((reason: Error) => void) | undefined;

  /** Abandons the execution with `reason` (the first call only). */
  fire(reason: Error): void {
    if (this.#fired) return;
    this.#fired = true;
    const listener = this.#listener;
    this.#listener = undefined;
    listener?.(reason);
  }

  /** Calls `listener` at the next {@link fire}, as an abort listener would (one at a time). */
  listen(listener: (reason: Error) => void): () => void {
    if (this.#fired) return () => {};
    this.#listener = listener;
    return () => {
      if (this.#listener === listener) this.#listener = undefined;
    };
  }
}

/**
 * What a supervision settles with, in place of the execution's value or error, once it stops
 * watching: the caller's clean-up done in the supervision's own callbacks, not in an async
 * layer around it (its promise and await per execution).
 */
export interface SupervisionSettle<T> {
  /** The value to resolve with (or a promise of it). */
  value(value: T): T | Promise<T>;
  /**
   * Called with the execution's error, or the abort reason when it is abandoned (the fence is
   * abandoned first): a promise to settle with (it waits for something), or `undefined` to
   * reject with the error at once.
   */
  error(error: unknown): Promise<T> | undefined;
}

/** Where an execution reports how it ended (the first call counts). */
export interface ExecutionSettle<T> {
  resolve(value: T): void;
  reject(error: unknown): void;
}

/**
 * Starts an execution that reports to `settle` (e.g. `startRun`): the supervision's own promise
 * is then the execution's, not a second one adopting it.
 */
export type StartExecution<T> = (settle: ExecutionSettle<T>) => void;

/** An execution's cancel as its supervision sees it (see `RunCancel`). */
export interface SupervisedCancel {
  readonly aborted: boolean;
  readonly reason: unknown;
  abort(reason: unknown): void;
  /** Calls `listener` after the next abort (one listener at a time); returns the function that removes it. */
  listen(listener: () => void): () => void;
}

/** What {@link superviseExecution} watches besides the execution. */
export interface Supervision<T = unknown> {
  /**
   * The run's cancel (the worker's `RunCancel`): aborted from outside, or here by the deadline
   * timer (with the reason `onDeadline` gives) and a hand-back; it calls the supervision after
   * each abort (a call, not an `abort` listener on a signal).
   */
  cancel: SupervisedCancel;
  /** Epoch ms; at it the cancel aborts with `onDeadline()`. @default none */
  deadline?: number | undefined;
  onDeadline: () => Error;
  /** How long an aborted execution may take to end by itself before it is abandoned. */
  graceMs: number;
  fence: ExecutionFence;
  /** Fired (with a {@link RunHandedBackError}) to abandon the execution at once. @default never */
  handBack?: HandBack;
  /** @default the execution's value or error as they are */
  settle?: SupervisionSettle<T>;
}

/**
 * Starts the execution and waits for it, but never longer than `graceMs` after the cancel
 * aborts (a cancel from outside, or the deadline): past that the execution is abandoned (its writes refused from then on, see
 * {@link ExecutionFence}) and this rejects with the abort reason, so the worker ends the run and
 * frees its slot even when the code never returns.
 *
 * One promise settled by callbacks, the execution's own: every promise pays the async-context
 * hooks, and this runs once per execution. A synchronous throw of `start` is the execution's error.
 */
export function superviseExecution<T>(start: StartExecution<T>, supervision: Supervision<T>): Promise<T> {
  const { cancel, deadline, graceMs, fence, handBack, settle } = supervision;
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    let graceTimer: { clear(): void } | undefined;
    let deadlineTimer: { clear(): void } | undefined;
    let unlisten: (() => void) | undefined;
    let stopWatchingAborts: (() => void) | undefined;
    const succeed = (value: T) => {
      try {
        resolve(settle ? settle.value(value) : value);
      } catch (error) {
        reject(error);
      }
    };
    const fail = (error: unknown) => {
      try {
        const waiting = settle?.error(error);
        if (waiting) resolve(waiting);
        else reject(error);
      } catch (thrown) {
        reject(thrown);
      }
    };
    // Once: the deadline timer calls it after its abort, which a signal listener also heard.
    const abandonLater = () => {
      if (graceTimer !== undefined || settled) return;
      graceTimer = setLongTimer(() => {
        if (!finish()) return;
        fence.abandon();
        fail(cancel.reason);
      }, graceMs);
    };
    const onHandBack = (reason: Error) => {
      if (!finish()) return;
      fence.abandon();
      // Code that still checks its signal stops at its next step.
      cancel.abort(reason);
      fail(reason);
    };
    /** Stops watching; `false` when the supervision had already settled. */
    const finish = (): boolean => {
      if (settled) return false;
      settled = true;
      graceTimer?.clear();
      deadlineTimer?.clear();
      stopWatchingAborts?.();
      unlisten?.();
      return true;
    };
    // Whatever the abandoned execution reports later is not ours to handle.
    try {
      start({
        resolve: (value) => {
          if (finish()) succeed(value);
        },
        reject: (error) => {
          if (finish()) fail(error);
        },
      });
    } catch (error) {
      if (finish()) fail(error);
    }
    // Ended already (a synchronous throw): nothing to watch.
    if (settled) return;
    unlisten = handBack?.listen(onHandBack);
    if (cancel.aborted) abandonLater();
    else {
      stopWatchingAborts = cancel.listen(abandonLater);
      if (deadline !== undefined)
        deadlineTimer = setLongTimer(() => {
          cancel.abort(supervision.onDeadline());
          abandonLater();
        }, deadline - Date.now());
    }
  });
}
