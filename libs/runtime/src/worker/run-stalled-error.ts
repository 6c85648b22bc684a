/**
 * The run's job stalled (its worker died or froze) more often than `maxStalledCount` allows,
 * so BullMQ failed it. The journal is kept: the cause is usually in the workers' logs.
 */
export class RunStalledError extends Error {
  override readonly name = 'RunStalledError';
  readonly runId: string;

  constructor(runId: string, reason: string) {
    super(
      `Run "${runId}" failed after its worker stopped responding too often (${reason}). Check the worker ` +
        'logs for crashes or a blocked event loop, or raise FLOTILLA_MAX_STALLED_COUNT.',
    );
    this.runId = runId;
  }

  static is(error: unknown): error is RunStalledError {
    return error instanceof Error && error.name === 'RunStalledError';
  }
}
