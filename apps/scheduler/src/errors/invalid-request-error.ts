import { errorGuard, FlotillaError } from '@flotilla/runtime';

/** The request is JSON but a field is missing or has the wrong type; the message names the field. Answered with HTTP 400. */
export class InvalidRequestError extends FlotillaError {
  static override readonly errorName = 'InvalidRequestError';
  static override readonly is = errorGuard(this);
}
