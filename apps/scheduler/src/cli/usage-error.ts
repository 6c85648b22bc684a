import { errorGuard, FlotillaError } from '@flotilla/runtime';

/** The command line is wrong; the message says how, the CLI prints its usage after it. */
export class UsageError extends FlotillaError {
  static override readonly errorName = 'UsageError';
  static override readonly is = errorGuard(this);
}
