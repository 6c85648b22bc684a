/**
 * One waiting read of a notice-driven reader (`cluster-event-reader.ts`, `run-end-reader.ts`):
 * woken by a notice, a reconnect or a close (`wake`), and by its deadline, after which
 * `timedOut` is set. `next()` is the next wake-up, each made once the last one was taken, so a
 * wake-up between two looks is not lost. `end()` clears the deadline's timer.
 */
export class ReadWait {
  timedOut = false;
  #resolve: (() => void) | undefined;
  readonly #timer: NodeJS.Timeout;

  constructor(blockMs: number) {
    this.#timer = setTimeout(() => {
      this.timedOut = true;
      this.wake();
    }, blockMs);
  }

  next(): Promise<void> {
    return new Promise((resolve) => {
      this.#resolve = resolve;
    });
  }

  wake(): void {
    this.#resolve?.();
  }

  end(): void {
    clearTimeout(this.#timer);
    this.#resolve = undefined;
  }
}
