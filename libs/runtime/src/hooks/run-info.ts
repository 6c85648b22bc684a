import { requireAgentContext } from '../context/context-store.js';
import { unqualifyId } from '../jobs/tenant-ids.js';

/** What an agent can know about the run it executes in. */
export interface RunInfo {
  /** The run's id, as its submitter named it (for a child run: the child's own id). */
  runId: string;
  /**
   * The tenant whose run it is (the client's `forTenant(tenant)`, or the tenant of the named API
   * token that submitted it); child runs have their root's. `undefined` for a run of no tenant
   * and in embedded mode.
   */
  tenant: string | undefined;
}

/**
 * The run the calling agent executes in: its id and its tenant, e.g. to pick a tenant's data
 * or credentials in a tool. The same on every replay, so handlers may branch on it.
 * @throws ContextNotFoundError outside an agent run
 */
export function runInfo(): RunInfo {
  const { services } = requireAgentContext('runInfo').run;
  return { runId: unqualifyId(services.runId), tenant: services.tenant };
}
