import { errorGuard, FlotillaError } from '@flotilla/ir';

/** Messages handed to a policy break the history rules (e.g. a tool result without its call). */
export class InvalidMessageHistoryError extends FlotillaError {
  static override readonly errorName = 'InvalidMessageHistoryError';
  static override readonly is = errorGuard(this);
  /** Index of the offending message in the list the policy built. */
  readonly index: number;

  constructor(index: number, reason: string) {
    super(`Invalid message history at index ${index}: ${reason}`);
    this.index = index;
  }
}
