import { requireAgentContext } from '../context/context-store.js';
import { type BudgetState, cloneUsageStats } from '../usage/usage-stats.js';

/**
 * The usage of the calling agent invocation (a deep copy): `own` (its model calls and
 * `recordToolUsage` records) and `aggregate` (its own plus every descendant's, child runs on
 * other workers included once they ended). Costs are integers per billing unit (`micro_usd`
 * from the price table). A replay rebuilds the same numbers from the journal; nothing is
 * counted twice.
 * @throws ContextNotFoundError outside an agent run
 */
export function getUsageStats(): BudgetState {
  const { usage } = requireAgentContext('getUsageStats');
  return { own: cloneUsageStats(usage.own), aggregate: cloneUsageStats(usage.aggregate) };
}
