/** The request is JSON but a field is missing or has the wrong type; the message names the field. Answered with HTTP 400. */
export class InvalidRequestError extends Error {
  override readonly name = 'InvalidRequestError';

  static is(error: unknown): error is InvalidRequestError {
    return error instanceof Error && error.name === 'InvalidRequestError';
  }
}
