import { errorGuard, FlotillaError } from '@flotilla/ir';

/**
 * The run's job stalled (its worker died or froze) more often than `maxStalledCount` allows,
 * so BullMQ failed it. The journal is kept: the cause is usually in the workers' logs.
 */
export class RunStalledError extends FlotillaError {
  static override readonly errorName = 'RunStalledError';
  static override readonly is = errorGuard(this);
  readonly runId: string;

  constructor(runId: string, reason: string) {
    super(
      `Run "${runId}" failed after its worker stopped responding too often (${reason}). Check the worker ` +
        'logs for crashes or a blocked event loop, or raise FLOTILLA_MAX_STALLED_COUNT.',
    );
    this.runId = runId;
  }
}
