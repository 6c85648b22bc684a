/** The request has no bearer token or the wrong one (FLOTILLA_API_TOKEN is set). Answered with HTTP 401. */
export class UnauthorizedError extends Error {
  override readonly name = 'UnauthorizedError';
  constructor() {
    super(
      'Missing or wrong bearer token: send `Authorization: Bearer <token>` with the FLOTILLA_API_TOKEN of the scheduler.',
    );
  }

  static is(error: unknown): error is UnauthorizedError {
    return error instanceof Error && error.name === 'UnauthorizedError';
  }
}
