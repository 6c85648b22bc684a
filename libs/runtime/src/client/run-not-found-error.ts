import { errorGuard, FlotillaError } from '@flotilla/ir';

/** No run has this id: it was never submitted, or its record expired (see run retention). */
export class RunNotFoundError extends FlotillaError {
  static override readonly errorName = 'RunNotFoundError';
  static override readonly is = errorGuard(this);
  readonly runId: string;

  constructor(runId: string) {
    super(`No run "${runId}": it was never submitted, or it ended longer ago than the run retention.`);
    this.runId = runId;
  }
}
