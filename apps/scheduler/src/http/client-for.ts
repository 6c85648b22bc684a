import type { FlotillaClient } from '@flotilla/runtime/client';
import type { Context } from 'hono';
import type { ApiEnv, Principal } from './api-env.js';

/**
 * The runtime client a request uses, and the one place that decides it: scoped to the
 * principal's tenant (it then sees only that tenant's runs and conversations; everything else
 * is "not found"), or the client itself for a principal without a tenant. Tenant views share
 * the client's connections: nothing to close.
 */
export function clientFor(c: Context<ApiEnv>): FlotillaClient {
  const { client } = c.var.api;
  // Public paths (`/healthz`) run before authorization: no principal, no tenant.
  const tenant = (c.var.principal as Principal | undefined)?.tenant;
  return tenant === undefined ? client : client.forTenant(tenant);
}
