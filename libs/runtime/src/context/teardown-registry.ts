/**
 * Cleanup callbacks of one agent invocation (resource destroyers). At agent end they are
 * started in reverse registration order and run concurrently; each failure is logged and
 * swallowed so one bad destroyer never stops the others. Teardown runs once.
 */
import type { Logger } from 'pino';
import { SETTLED } from '../shared/settled.js';

/** Registered cleanups of one agent invocation. */
export class TeardownRegistry {
  private readonly entries = new Set<() => Promise<void>>();
  private ran = false;

  /** Whether teardown has started; registering after that is refused. */
  get hasRun(): boolean {
    return this.ran;
  }

  /**
   * Registers `cleanup`; returns a function that unregisters it, or `undefined` when teardown
   * already ran (the caller must clean up itself).
   */
  register(cleanup: () => Promise<void>): (() => void) | undefined {
    if (this.ran) return undefined;
    this.entries.add(cleanup);
    return () => this.entries.delete(cleanup);
  }

  /** Runs every cleanup once (LIFO start, concurrent); failures are logged, never thrown. */
  run(logger: Logger | undefined): Promise<void> {
    if (this.ran) return SETTLED;
    this.ran = true;
    // Most invocations register nothing: no async work (its promises) for them.
    if (this.entries.size === 0) return SETTLED;
    const cleanups = [...this.entries].reverse();
    this.entries.clear();
    return runCleanups(cleanups, logger);
  }
}

/** Starts every cleanup (in the order given) and waits for all of them, logging failures. */
async function runCleanups(cleanups: (() => Promise<void>)[], logger: Logger | undefined): Promise<void> {
  const results = await Promise.allSettled(cleanups.map((cleanup) => cleanup()));
  for (const result of results) {
    if (result.status === 'rejected') logger?.warn({ err: result.reason }, 'resource teardown failed');
  }
}
