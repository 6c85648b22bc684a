import type { Logger } from 'pino';
import type { UnfinishedTurns } from '../context/run-services.js';

/**
 * The turns `promptChat` started in the current execution and has not stored yet (see
 * `RunServices.unfinishedTurns`). When the run ends failed or cancelled for good, the worker
 * stores them closed before the run leaves its conversation's line, so the next run sees a
 * valid history and never a half-written turn.
 */
export class UnfinishedTurnKeeper implements UnfinishedTurns {
  readonly #closers = new Set<() => Promise<void>>();

  open(close: () => Promise<void>): () => void {
    this.#closers.add(close);
    return () => this.#closers.delete(close);
  }

  /** A new execution replays the run from the top: the turns it reaches register again. */
  reset(): void {
    this.#closers.clear();
  }

  /** Stores every unfinished turn closed; a refused write (the lease lost, an abandoned execution) is logged. */
  async closeAll(logger: Logger): Promise<void> {
    for (const close of this.#closers) {
      try {
        await close();
      } catch (error) {
        logger.warn({ err: error }, 'unfinished turn of an ended run not stored');
      }
    }
    this.#closers.clear();
  }
}
