/** The handler kept returning `reborn()` past `maxReborns`. */
export class RebornLimitExceededError extends Error {
  override readonly name = 'RebornLimitExceededError';
  readonly maxReborns: number;
  readonly attemptedReborns: number;

  constructor(maxReborns: number, attemptedReborns: number) {
    super(
      `Reborn limit exceeded: the agent tried reborn #${attemptedReborns}, max allowed is ${maxReborns}. ` +
        'Make the reborn condition converge (keep a counter in equipMemory) or raise createAgent({ maxReborns }).',
    );
    this.maxReborns = maxReborns;
    this.attemptedReborns = attemptedReborns;
  }

  static is(error: unknown): error is RebornLimitExceededError {
    return error instanceof Error && error.name === 'RebornLimitExceededError';
  }
}
