import { errorGuard, FlotillaError } from '@flotilla/ir';

/**
 * A model call waited for its provider/model's fleet-wide budget longer than the limits'
 * `maxWaitMs`. Raise `rpm` / `tpm` (if the provider allows it), `maxWaitMs`, or run fewer at once.
 */
export class RateLimitWaitError extends FlotillaError {
  static override readonly errorName = 'RateLimitWaitError';
  static override readonly is = errorGuard(this);
  readonly model: string;
  readonly waitedMs: number;

  constructor(model: string, waitedMs: number) {
    super(
      `The call to ${model} waited ${waitedMs} ms for the fleet's rate limit budget and gave up (maxWaitMs); raise the limits or maxWaitMs, or run fewer calls at once.`,
    );
    this.model = model;
    this.waitedMs = waitedMs;
  }
}
