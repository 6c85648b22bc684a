import { errorGuard, FlotillaError } from '@flotilla/runtime';

/**
 * The scheduler answered an error. `errorName` is the server's error name (e.g.
 * `RunNotFoundError`), `status` the HTTP status.
 */
export class ApiRequestError extends FlotillaError {
  static override readonly errorName = 'ApiRequestError';
  static override readonly is = errorGuard(this);
  readonly status: number;
  readonly errorName: string;

  constructor(status: number, errorName: string, message: string) {
    super(`${errorName}: ${message}`);
    this.status = status;
    this.errorName = errorName;
  }
}
