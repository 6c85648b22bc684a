import { errorGuard, FlotillaError } from '@flotilla/runtime';

/** A non-loopback request while FLOTILLA_API_TOKEN is unset: without a token only this machine may call the API. Answered with HTTP 403. */
export class ForbiddenError extends FlotillaError {
  static override readonly errorName = 'ForbiddenError';
  static override readonly is = errorGuard(this);
  constructor(remoteAddress: string | undefined) {
    super(
      `Request from ${remoteAddress ?? 'an unknown address'} refused: FLOTILLA_API_TOKEN is not set, so only ` +
        'loopback requests are accepted. Set FLOTILLA_API_TOKEN on the scheduler and send it as a bearer token.',
    );
  }
}
