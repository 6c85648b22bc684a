import { errorGuard, FlotillaError } from '@flotilla/runtime';

/** The path exists but not with this method. Answered with HTTP 405. */
export class MethodNotAllowedError extends FlotillaError {
  static override readonly errorName = 'MethodNotAllowedError';
  static override readonly is = errorGuard(this);
  constructor(method: string, path: string, allowed: readonly string[]) {
    super(`${method} is not allowed on ${path}; use ${allowed.join(' or ')}.`);
  }
}
