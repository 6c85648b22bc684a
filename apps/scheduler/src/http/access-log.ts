import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { ApiEnv } from './api-env.js';

/**
 * Logs and counts (`flotilla_http_requests_total`) every answered request at info: method, route pattern (`/runs/:id`, never the ids or
 * query), status, duration and the principal's name and tenant — never a token.
 */
export function accessLog(): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const principal = c.get('principal');
    const answered = {
      method: c.req.method,
      route: matchedRoute(c),
      status: c.res.status,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
    };
    c.var.api.metrics.observeRequest(answered);
    c.var.api.logger.info(
      {
        ...answered,
        principal: principal?.name,
        tenant: principal?.tenant,
      },
      'request',
    );
  };
}

function matchedRoute(c: Parameters<MiddlewareHandler<ApiEnv>>[0]): string {
  const route = routePath(c, -1);
  // Unmatched paths are client text: logged as a placeholder, not verbatim.
  return route === '*' || route === '' ? '(no route)' : route;
}
