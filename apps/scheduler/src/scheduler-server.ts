import type { Server } from 'node:http';
import type { FlotillaClient } from '@flotilla/runtime/client';
import type { WaitingRunsReport } from '@flotilla/runtime/internals';
import { createAdaptorServer } from '@hono/node-server';
import { OpenAPIHono } from '@hono/zod-openapi';
import { HTTPException } from 'hono/http-exception';
import type { Logger } from 'pino';
import { InvalidRequestError, MethodNotAllowedError, RouteNotFoundError } from './errors/http-errors.js';
import { accessLog } from './http/access-log.js';
import type { ApiApp, ApiEnv } from './http/api-env.js';
import { authorizeRequest } from './http/authorize-request.js';
import { DASHBOARD_PATH, DashboardAssets, isDashboardPath } from './http/dashboard-assets.js';
import { allowedMethods } from './http/method-not-allowed.js';
import { errorAnswer } from './http/public-error.js';
import { rateLimitedLog } from './http/rate-limited-log.js';
import { readBoundedBody } from './http/read-bounded-body.js';
import { SchedulerMetrics } from './http/scheduler-metrics.js';
import { StreamCaps } from './http/stream-caps.js';
import { API_ROUTES } from './routes/api-routes.js';
import type { ApiToken } from './scheduler-config.js';

/** Options of {@link createSchedulerApp} and {@link createSchedulerServer}. */
export interface SchedulerServerOptions {
  /** The runtime client every endpoint uses (the caller closes it). */
  client: FlotillaClient;
  /** Bearer tokens a request may carry (`acceptedTokens(config)`); none: loopback requests to a loopback Host only. */
  apiTokens: readonly ApiToken[];
  /** The payload and depth limits of submissions: the runtime's, so the API accepts what workers accept. */
  maxPayloadBytes: number;
  maxJsonDepth: number;
  /** A request body must arrive within this many ms (408 otherwise). */
  bodyTimeoutMs: number;
  /** Open event streams per principal (429 past it). */
  maxStreamsPerPrincipal: number;
  /** The stream counter to use (to read it from outside). @default a new one with `maxStreamsPerPrincipal` */
  streams?: StreamCaps;
  /** The dashboard's built files served at `/ui`. @default `@flotilla/dashboard`'s `dist/` */
  dashboard?: DashboardAssets;
  /** Also report the default process metrics (CPU, memory, GC, event loop) on `/metrics`. @default false */
  processMetrics?: boolean;
  /** Report the fleet's waiting runs (`flotilla_runs_waiting`) on `/metrics` from this. @default not reported */
  waitingRuns?: WaitingRunsReport;
  logger: Logger;
}

/** Where the OpenAPI 3.1 document is served. */
export const OPENAPI_PATH = '/openapi.json';
/** Answered without a token. */
const PUBLIC_PATHS = new Set(['/healthz']);

/**
 * The scheduler's HTTP API as a Hono app: every route of `API_ROUTES`, validated and described
 * by its zod schemas, `GET /openapi.json` generated from them, and errors as `{ error: { name,
 * message, data? } }` with their status (see `ERROR_STATUS`).
 */
export function createSchedulerApp(options: SchedulerServerOptions): ApiApp {
  const { logger } = options;
  const streams = options.streams ?? new StreamCaps(options.maxStreamsPerPrincipal);
  const metrics = new SchedulerMetrics(streams, {
    processMetrics: options.processMetrics ?? false,
    waitingRuns: options.waitingRuns,
  });
  const api = { client: options.client, logger, streams, metrics };
  const app: ApiApp = new OpenAPIHono<ApiEnv>({
    defaultHook: (result) => {
      if (result.success) return;
      const issue = result.error.issues[0];
      const field = issue?.path.map(String).join('.');
      const message = issue?.message ?? 'is invalid';
      if (field) throw new InvalidRequestError(`\`${field}\` ${message}.`);
      const part = result.target === 'json' ? 'The request body' : `The ${result.target}`;
      throw new InvalidRequestError(`${part} is invalid: ${message}.`);
    },
  });
  const logUnavailable = rateLimitedLog(10_000, (suppressed) =>
    logger.warn(
      { suppressed },
      'requests failed: Redis unavailable (503); the outage is logged by the client',
    ),
  );

  app.use(async (c, next) => {
    c.set('api', api);
    await next();
  });
  app.use(accessLog());
  // The dashboard's static files, before authorization: the page holds no data, asks for the
  // token and sends it on every API call. Not an API route, so not in the OpenAPI document.
  const dashboard = options.dashboard ?? new DashboardAssets();
  app.use(async (c, next) => {
    if ((c.req.method === 'GET' || c.req.method === 'HEAD') && isDashboardPath(c.req.path))
      return dashboard.serve(c);
    await next();
  });
  app.use(async (c, next) => {
    if (PUBLIC_PATHS.has(c.req.path)) return next();
    const principal = authorizeRequest(
      {
        remoteAddress: c.env.incoming.socket.remoteAddress,
        header: (name) => c.req.header(name),
        query: new URL(c.req.url).searchParams,
      },
      options.apiTokens,
    );
    c.set('principal', principal);
    await next();
  });
  app.use(
    readBoundedBody({
      maxBytes: options.maxPayloadBytes,
      maxDepth: options.maxJsonDepth,
      timeoutMs: options.bodyTimeoutMs,
    }),
  );
  for (const route of API_ROUTES) route.register(app);
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer' });
  // Generated once, on first request: the routes do not change while the app runs.
  let document: ReturnType<typeof app.getOpenAPI31Document> | undefined;
  app.get(OPENAPI_PATH, (c) => {
    document ??= app.getOpenAPI31Document({
      openapi: '3.1.0',
      info: {
        title: 'Flotilla scheduler API',
        version: '1',
        description: 'Submit, follow, cancel and read agent runs and stored conversations.',
      },
      security: [{ bearer: [] }],
    });
    return c.json(document, 200);
  });

  const allowed = allowedMethods([
    ...API_ROUTES,
    { method: 'GET', path: OPENAPI_PATH },
    { method: 'GET', path: DASHBOARD_PATH },
  ]);
  app.notFound((c) => {
    const methods = allowed(c.req.path);
    if (methods.length > 0) throw new MethodNotAllowedError(c.req.method, c.req.path, methods);
    throw new RouteNotFoundError(c.req.method, c.req.path);
  });
  app.onError((thrown, c) => {
    // Hono's own refusals (e.g. its validator's) are the client's fault: a 400 with their message.
    const error =
      thrown instanceof HTTPException && thrown.status < 500
        ? new InvalidRequestError(thrown.message)
        : thrown;
    const { status, body } = errorAnswer(error);
    const fields = { method: c.req.method, status };
    if (status === 503) logUnavailable();
    else if (status >= 500) logger.error({ ...fields, err: error }, 'request failed');
    else logger.debug({ ...fields, err: error }, 'request refused');
    if (status === 401) c.header('www-authenticate', 'Bearer realm="flotilla"');
    if (MethodNotAllowedError.is(error))
      c.header('allow', (error as MethodNotAllowedError).allowed.join(', '));
    // The rest of an oversized or stalled body is not read: closing the connection drops it.
    if (status === 408 || status === 413 || status === 415) c.header('connection', 'close');
    c.header('cache-control', 'no-store');
    return c.json(body, status as 500);
  });
  return app;
}

/** The scheduler's HTTP API on a `node:http` server (not yet listening). */
export function createSchedulerServer(options: SchedulerServerOptions): Server {
  const app = createSchedulerApp(options);
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  // Node's own bounds for the parts before the body reader runs (headers of a slow client).
  server.headersTimeout = Math.min(options.bodyTimeoutMs, 60_000);
  server.requestTimeout = options.bodyTimeoutMs + 5000;
  return server;
}
