import type { FlotillaClient } from '@flotilla/runtime/client';
import type { HttpBindings } from '@hono/node-server';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Logger } from 'pino';
import type { SchedulerMetrics } from './scheduler-metrics.js';
import type { StreamCaps } from './stream-caps.js';

/**
 * Who a request acts for, set by the auth middleware. Today's single `FLOTILLA_API_TOKEN` (or
 * the tokenless loopback mode) is `{ name: 'default' }`; named tokens with tenants set the
 * token's name and tenant. Logged and used for per-principal limits, never the token itself.
 */
export interface Principal {
  name: string;
  tenant?: string;
}

/** What every route shares: set once per app, read through `clientFor(c)` / `c.var.api`. */
export interface ApiServices {
  /** The runtime client every route uses (through {@link clientFor}, never directly). */
  client: FlotillaClient;
  logger: Logger;
  /** Open SSE streams per principal, capped. */
  streams: StreamCaps;
  /** The scheduler's Prometheus metrics (`GET /metrics`). */
  metrics: SchedulerMetrics;
}

/** The Hono environment of the scheduler's app: node's request/response and per-request values. */
export interface ApiEnv {
  Bindings: HttpBindings;
  Variables: {
    api: ApiServices;
    principal: Principal;
  };
}

/** The app routes are registered on. */
export type ApiApp = OpenAPIHono<ApiEnv>;
