/**
 * An error answer of the scheduler API (`{ error: { name, message } }`) or a request that got
 * no answer: the dashboard shows `name` and `message` as they came, as text.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** The HTTP status, 0 when the scheduler did not answer. */
  readonly status: number;
  /** The API's error name (`RunNotFoundError` …), or `NetworkError`. */
  readonly errorName: string;

  constructor(status: number, errorName: string, message: string) {
    super(message);
    this.status = status;
    this.errorName = errorName;
  }
}
