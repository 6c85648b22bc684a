/** The request body is not JSON. Answered with HTTP 400. */
export class InvalidJsonError extends Error {
  override readonly name = 'InvalidJsonError';

  static is(error: unknown): error is InvalidJsonError {
    return error instanceof Error && error.name === 'InvalidJsonError';
  }
}
