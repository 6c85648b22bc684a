/** No endpoint has this path. Answered with HTTP 404. */
export class RouteNotFoundError extends Error {
  override readonly name = 'RouteNotFoundError';
  constructor(method: string, path: string) {
    super(
      `No endpoint ${method} ${path}. Endpoints: POST /runs, GET /runs/:id, GET /runs/:id/events, ` +
        'POST /runs/:id/cancel, GET /conversations/:id, GET /healthz.',
    );
  }

  static is(error: unknown): error is RouteNotFoundError {
    return error instanceof Error && error.name === 'RouteNotFoundError';
  }
}
