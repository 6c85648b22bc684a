/**
 * Aborts a request that goes silent: no answer, or no chunk of an event stream (the scheduler
 * sends a heartbeat every 15 s), for `limitMs`. A connection cut without a clean close (a
 * scheduler killed mid-answer) can otherwise leave `fetch` waiting forever, and with nothing
 * else to wait for Node exits with 13 (unsettled top-level await). Its timer is ref'd on purpose:
 * it keeps the CLI alive until the request settles or is aborted and retried.
 */
export class SilenceWatchdog {
  readonly #controller = new AbortController();
  readonly #limitMs: number;
  #timer: NodeJS.Timeout;

  constructor(limitMs: number) {
    this.#limitMs = limitMs;
    this.#timer = this.#arm();
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Something arrived: the silence starts again. */
  heard(): void {
    clearTimeout(this.#timer);
    this.#timer = this.#arm();
  }

  stop(): void {
    clearTimeout(this.#timer);
  }

  #arm(): NodeJS.Timeout {
    return setTimeout(
      () => this.#controller.abort(new Error(`the scheduler said nothing for ${this.#limitMs / 1000} s`)),
      this.#limitMs,
    );
  }
}
