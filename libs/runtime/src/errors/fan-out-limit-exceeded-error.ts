/**
 * A run called more child agents than its limit allows (`maxChildrenPerRun` /
 * `FLOTILLA_MAX_CHILDREN_PER_RUN`, default 1000). Thrown at the call that passed the limit;
 * the handler may catch it.
 */
export class FanOutLimitExceededError extends Error {
  override readonly name = 'FanOutLimitExceededError';
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

  static is(error: unknown): error is FanOutLimitExceededError {
    return error instanceof Error && error.name === 'FanOutLimitExceededError';
  }
}
