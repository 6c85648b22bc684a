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
  readonly #controllers = new Map<string, AbortController>();

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

  /** A signal for `runId`, aborted when a cancel for it arrives; release it with {@link release}. */
  register(runId: string): AbortController {
    const controller = new AbortController();
    this.#controllers.set(runId, controller);
    return controller;
  }

  release(runId: string, controller: AbortController): void {
    if (this.#controllers.get(runId) === controller) this.#controllers.delete(runId);
  }

  abort(runId: string): void {
    this.#controllers.get(runId)?.abort(new AbortError(`run ${runId} was cancelled`));
  }

  async close(): Promise<void> {
    await this.#subscriber.quit().catch(() => this.#subscriber.disconnect());
  }
}
