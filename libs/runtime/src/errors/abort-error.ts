import { errorGuard, FlotillaError } from '@flotilla/ir';

/**
 * The run (or one agent in it) was cancelled. Thrown at the next durable step after the signal
 * aborts, and by `equipResource` when the agent ended while the resource was being created.
 */
export class AbortError extends FlotillaError {
  static override readonly errorName = 'AbortError';
  static override readonly is = errorGuard(this);
  /** The abort reason, as text. */
  readonly reason: string;

  constructor(reason = 'Cancelled') {
    super(`Cancelled: ${reason}`);
    this.reason = reason;
  }
}
