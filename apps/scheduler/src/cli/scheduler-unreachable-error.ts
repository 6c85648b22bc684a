import { errorGuard, FlotillaError } from '@flotilla/runtime';

/**
 * The CLI lost the scheduler (a restart, a dropped connection) and could not reach it again
 * within its retries; the run itself goes on. `lastEventId` is where to resume.
 */
export class SchedulerUnreachableError extends FlotillaError {
  static override readonly errorName = 'SchedulerUnreachableError';
  static override readonly is = errorGuard(this);
  readonly url: string;
  readonly attempts: number;

  constructor(url: string, attempts: number, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      `Lost the scheduler at ${url} and ${attempts} attempts to reconnect failed (last: ${reason}). ` +
        'The run goes on: check that the scheduler is up, then follow the run again (flotilla events <runId>).',
      { cause },
    );
    this.url = url;
    this.attempts = attempts;
  }
}
