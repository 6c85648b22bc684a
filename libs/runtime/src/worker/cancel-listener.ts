import type { Redis } from 'ioredis';
import type { RunAbort } from '../context/run-services.js';
import { AbortError } from '../errors/run-errors.js';
import { cancelChannel } from '../keys.js';

/**
 * A worker's ear for cancel requests: one subscriber connection on the fleet's cancel
 * channel; a message naming a run this worker executes aborts that run's signal. Runs the
 * worker does not hold are ignored (their worker, or the cancel flag at start, handles them).
 */
export class CancelListener {
  readonly #subscriber: Redis;
  readonly #channel: string;
  readonly #cancels = new Map<string, RunCancel>();

  constructor(subscriber: Redis, prefix: string) {
    this.#subscriber = subscriber;
    this.#channel = cancelChannel(prefix);
    this.#subscriber.on('message', (channel: string, runId: string) => {
      if (channel === this.#channel) this.abort(runId);
    });
  }

  async start(): Promise<void> {
    await this.#subscriber.subscribe(this.#channel);
  }

  /** The cancel of `runId`, aborted when a cancel for it arrives; release it with {@link release}. */
  register(runId: string): RunCancel {
    const cancel = new RunCancel();
    this.#cancels.set(runId, cancel);
    return cancel;
  }

  release(runId: string, cancel: RunCancel): void {
    if (this.#cancels.get(runId) === cancel) this.#cancels.delete(runId);
  }

  abort(runId: string): void {
    this.#cancels.get(runId)?.abort(new AbortError(`run ${runId} was cancelled`));
  }

  async close(): Promise<void> {
    await this.#subscriber.quit().catch(() => this.#subscriber.disconnect());
  }
}

/**
 * One run's cancel on this worker: aborted by a cancel, the deadline or a hand-back. Its
 * `AbortSignal` is made only when something asks for it (`RunServices.signal`): the root agent
 * invocation reads the abort state and links its own controller through {@link RunAbort}
 * instead, and a signal costs a run's worker ~2 % of its CPU (Node builds each one as an
 * EventTarget and sets its prototype). One listener (its supervision) is told right after every
 * abort made through {@link abort}: a call, not an `abort` event listener on the signal.
 */
export class RunCancel implements RunAbort {
  #aborted = false;
  #reason: unknown;
  #controller: AbortController | undefined;
  /** Controllers aborted with the run (the root invocations' own, see {@link link}). */
  #links: AbortController[] | undefined;
  #listener: (() => void) | undefined;

  get aborted(): boolean {
    return this.#aborted;
  }

  /** Why the run aborted (the first reason), once it did. */
  get reason(): unknown {
    return this.#reason;
  }

  /** A signal aborted with the run (made at the first read, aborted already when the run is). */
  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** Aborts `controller` with the run's reason when the run aborts (at once when it has); returns the unlink. */
  link(controller: AbortController): () => void {
    if (this.#aborted) {
      controller.abort(this.#reason);
      return () => {};
    }
    this.#links ??= [];
    this.#links.push(controller);
    return () => {
      const index = this.#links?.indexOf(controller) ?? -1;
      if (index >= 0) this.#links?.splice(index, 1);
    };
  }

  /** Aborts the run with `reason` (the first abort counts), its signal and links, then calls the listener (once). */
  abort(reason: unknown): void {
    if (!this.#aborted) {
      this.#aborted = true;
      this.#reason = reason;
      this.#controller?.abort(reason);
      const links = this.#links;
      this.#links = undefined;
      if (links) for (const controller of links) controller.abort(reason);
    }
    const listener = this.#listener;
    this.#listener = undefined;
    listener?.();
  }

  /** Calls `listener` after the next {@link abort} (one listener at a time); returns the function that removes it. */
  listen(listener: () => void): () => void {
    this.#listener = listener;
    return () => {
      if (this.#listener === listener) this.#listener = undefined;
    };
  }
}
