/**
 * Tenant scoping of stored ids. A tenant's run `r` is stored (keys, BullMQ job id, job data)
 * as `<tenant>~r`, and its conversation `c` as `<tenant>~c`; runs of no tenant keep their id.
 * `~` is not an id character (`id-rule.ts`), so the same id in two tenants names two runs and
 * no id a client can pass reaches another tenant's keys. Child run ids derive from the stored
 * root id, so a tree stays in its tenant without anything else to carry.
 */
import { TENANT_SEPARATOR } from './id-rule.js';

/** The stored form of `id` for `tenant` (`id` itself without a tenant). */
export function qualifyId(tenant: string | undefined, id: string): string {
  return tenant === undefined ? id : `${tenant}${TENANT_SEPARATOR}${id}`;
}

/** The tenant of a stored id, or `undefined` for an id of no tenant. */
export function tenantOfId(storedId: string): string | undefined {
  const at = storedId.indexOf(TENANT_SEPARATOR);
  return at < 0 ? undefined : storedId.slice(0, at);
}

/** The id as its tenant names it (a stored id without its tenant). */
export function unqualifyId(storedId: string): string {
  const at = storedId.indexOf(TENANT_SEPARATOR);
  return at < 0 ? storedId : storedId.slice(at + 1);
}
