import type { Logger } from 'pino';

/** Options of {@link shutdownOnSignals}. */
export interface ShutdownOptions {
  /** Stops taking work and waits for active work; resolves when everything is closed. */
  shutdown(): Promise<void>;
  /** How long `shutdown` may take before the process exits anyway. */
  timeoutMs: number;
  logger: Logger;
  /** @default process.exit */
  exit?: (code: number) => void;
}

/**
 * On the first SIGTERM or SIGINT, runs `shutdown` and exits 0 when it finishes, or 1 when it
 * takes longer than `timeoutMs` or fails. Runs still active then are not lost: their BullMQ
 * locks expire and another worker replays them from the journal. A second signal exits at once.
 */
export function shutdownOnSignals(options: ShutdownOptions): void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      options.logger.warn({ signal }, 'second signal: exiting now; active runs will be replayed elsewhere');
      exit(1);
      return;
    }
    stopping = true;
    options.logger.info(
      { signal, timeoutMs: options.timeoutMs },
      'shutting down: no new runs, waiting for active ones',
    );
    const timer = setTimeout(() => {
      options.logger.warn('shutdown timed out: exiting; active runs will be replayed by another worker');
      exit(1);
    }, options.timeoutMs);
    timer.unref();
    options.shutdown().then(
      () => {
        clearTimeout(timer);
        options.logger.info('shut down');
        exit(0);
      },
      (error: unknown) => {
        clearTimeout(timer);
        options.logger.error({ err: error }, 'shutdown failed');
        exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
