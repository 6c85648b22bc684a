import { errorGuard, FlotillaError } from '@flotilla/ir';

/**
 * A run called more child agents than its limit allows (`maxChildrenPerRun` /
 * `FLOTILLA_MAX_CHILDREN_PER_RUN`, default 1000). Thrown at the call that passed the limit;
 * the handler may catch it.
 */
export class FanOutLimitExceededError extends FlotillaError {
  static override readonly errorName = 'FanOutLimitExceededError';
  static override readonly is = errorGuard(this);
  /** The limit that was passed. */
  readonly maxChildren: number;
  /** The journal position of the refused call. */
  readonly position: string;

  constructor(maxChildren: number, position: string) {
    super(
      `The run called more than ${maxChildren} child agents; the call at ${position} was refused. Split the work ` +
        'into batches handled by intermediate child agents, or raise maxChildrenPerRun / FLOTILLA_MAX_CHILDREN_PER_RUN.',
    );
    this.maxChildren = maxChildren;
    this.position = position;
  }
}
