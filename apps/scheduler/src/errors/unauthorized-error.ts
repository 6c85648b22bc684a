import { errorGuard, FlotillaError } from '@flotilla/runtime';

/** The request has no bearer token or the wrong one (FLOTILLA_API_TOKEN is set). Answered with HTTP 401. */
export class UnauthorizedError extends FlotillaError {
  static override readonly errorName = 'UnauthorizedError';
  static override readonly is = errorGuard(this);
  constructor() {
    super(
      'Missing or wrong bearer token: send `Authorization: Bearer <token>` with the FLOTILLA_API_TOKEN of the scheduler.',
    );
  }
}
