import { errorGuard, FlotillaError } from '@flotilla/ir';

/** The handler kept returning `reborn()` past `maxReborns`. */
export class RebornLimitExceededError extends FlotillaError {
  static override readonly errorName = 'RebornLimitExceededError';
  static override readonly is = errorGuard(this);
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
}
