/**
 * The scheduler answered an error. `errorName` is the server's error name (e.g.
 * `RunNotFoundError`), `status` the HTTP status.
 */
export class ApiRequestError extends Error {
  override readonly name = 'ApiRequestError';
  readonly status: number;
  readonly errorName: string;

  constructor(status: number, errorName: string, message: string) {
    super(`${errorName}: ${message}`);
    this.status = status;
    this.errorName = errorName;
  }

  static is(error: unknown): error is ApiRequestError {
    return error instanceof Error && error.name === 'ApiRequestError';
  }
}
