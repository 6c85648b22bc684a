import { errorGuard, FlotillaError } from '@flotilla/runtime';

/** The request body is not JSON. Answered with HTTP 400. */
export class InvalidJsonError extends FlotillaError {
  static override readonly errorName = 'InvalidJsonError';
  static override readonly is = errorGuard(this);
}
