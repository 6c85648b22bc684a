import { errorGuard, FlotillaError } from '@flotilla/runtime';

/** The request body is longer than FLOTILLA_API_MAX_BODY_BYTES. Answered with HTTP 413. */
export class RequestBodyTooLargeError extends FlotillaError {
  static override readonly errorName = 'RequestBodyTooLargeError';
  static override readonly is = errorGuard(this);

  readonly limitBytes: number;

  constructor(limitBytes: number) {
    super(
      `The request body is longer than ${limitBytes} bytes. Send a smaller input (keep large data out of run ` +
        'inputs and pass an id), or raise FLOTILLA_API_MAX_BODY_BYTES.',
    );
    this.limitBytes = limitBytes;
  }
}
