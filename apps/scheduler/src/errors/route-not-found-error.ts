import { errorGuard, FlotillaError } from '@flotilla/runtime';

/** No endpoint has this path. Answered with HTTP 404. */
export class RouteNotFoundError extends FlotillaError {
  static override readonly errorName = 'RouteNotFoundError';
  static override readonly is = errorGuard(this);
  constructor(method: string, path: string) {
    super(
      `No endpoint ${method} ${path}. Endpoints: POST /runs, GET /runs/:id, GET /runs/:id/events, ` +
        'POST /runs/:id/cancel, GET /conversations/:id, GET /healthz.',
    );
  }
}
