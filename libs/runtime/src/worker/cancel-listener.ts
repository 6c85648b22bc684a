import type { Redis } from 'ioredis';
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
 * One run's cancel on this worker: the controller whose signal the run sees, and one listener
 * (its supervision) told right after every abort made through {@link abort}. A call, not an
 * `abort` event listener on the signal: adding and removing one per execution is EventTarget
 * work every run pays.
 */
export class RunCancel {
  readonly controller = new AbortController();
  #listener: (() => void) | undefined;

  /** Aborts the signal with `reason`, then calls the listener (once). */
  abort(reason: unknown): void {
    this.controller.abort(reason);
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
