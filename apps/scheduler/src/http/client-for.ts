import type { FlotillaClient } from '@flotilla/runtime/client';
import type { Context } from 'hono';
import type { ApiEnv } from './api-env.js';

/**
 * The runtime client a request uses: the one place that decides it, so a per-tenant view
 * (`client.forTenant(principal.tenant)`) is one change here for every route.
 */
export function clientFor(c: Context<ApiEnv>): FlotillaClient {
  return c.var.api.client;
}
