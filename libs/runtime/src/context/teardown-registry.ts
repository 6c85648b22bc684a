/**
 * Cleanup callbacks of one agent invocation (resource destroyers). At agent end they are
 * started in reverse registration order and run concurrently; each failure is logged and
 * swallowed so one bad destroyer never stops the others. Teardown runs once.
 */
import type { Logger } from 'pino';

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
  async run(logger: Logger | undefined): Promise<void> {
    if (this.ran) return;
    this.ran = true;
    const cleanups = [...this.entries].reverse();
    this.entries.clear();
    const results = await Promise.allSettled(cleanups.map((cleanup) => cleanup()));
    for (const result of results) {
      if (result.status === 'rejected') logger?.warn({ err: result.reason }, 'resource teardown failed');
    }
  }
}
