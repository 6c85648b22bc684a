import type { FlotillaClient } from '@flotilla/runtime/client';
import type { Principal } from './authorize-request.js';

/**
 * The client a request's routes use: scoped to the principal's tenant (it then sees only that
 * tenant's runs and conversations, and everything else is "not found"), or the client itself
 * for a principal without a tenant. Tenant views share the client's connections; nothing to close.
 */
export function clientForPrincipal(client: FlotillaClient, principal: Principal): FlotillaClient {
  return principal.tenant === undefined ? client : client.forTenant(principal.tenant);
}
