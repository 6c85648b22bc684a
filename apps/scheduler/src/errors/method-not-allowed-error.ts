/** The path exists but not with this method. Answered with HTTP 405. */
export class MethodNotAllowedError extends Error {
  override readonly name = 'MethodNotAllowedError';
  constructor(method: string, path: string, allowed: readonly string[]) {
    super(`${method} is not allowed on ${path}; use ${allowed.join(' or ')}.`);
  }

  static is(error: unknown): error is MethodNotAllowedError {
    return error instanceof Error && error.name === 'MethodNotAllowedError';
  }
}
