import { currentAgentContext } from '../context/context-store.js';
import { durableStep } from '../engine/durable-step.js';
import { currentToolScope } from '../engine/progress-scope.js';
import { applyUsage, effectiveBudget, recordUsage } from '../engine/usage-budget.js';
import { InvalidBudgetError } from '../errors/budget-errors.js';
import { checkCosts, MICRO_USD, toolUsageStats, type UsageStats } from '../usage/usage-stats.js';

/** A non-LLM spend to record (`recordToolUsage`). */
export interface ToolUsageRecord {
  /** The tool or service, e.g. `web-search`. */
  name: string;
  /** Integer costs per billing unit, e.g. `{ micro_usd: 5000 }`; `micro_usd` counts against `maxCostMicroUsd`. */
  costs: Record<string, number>;
  /** How much of `unit` was used (finite, ≥ 0). */
  quantity: number;
  /** E.g. `requests`, `pages`, `seconds`. */
  unit: string;
  /** Tells records of one tool apart (items merge by name, unit and details). @default none */
  details?: string;
}

const MAX_TEXT = 200;

/**
 * Records usage that is not a model call (a paid API, a search) in the calling agent: own and
 * aggregate stats, every ancestor's aggregate, the `onUpdate` callbacks (child-first) and the
 * tree's spend (its `micro_usd` counts against `maxCostMicroUsd`). Journaled: a replay of the
 * handler does not count a record again. Outside an agent run it only warns (as in the seed).
 * @throws InvalidBudgetError naming a bad field; InvalidCostValueError for a cost that is not a non-negative integer
 */
export async function recordToolUsage(record: ToolUsageRecord): Promise<void> {
  const context = currentAgentContext();
  const stats = checkRecord(record);
  if (!context) {
    process.emitWarning('recordToolUsage was called outside an agent run; the usage was not recorded.');
    return;
  }
  const spent: { stats?: UsageStats } = {};
  await durableStep(context, {
    kind: 'tool-usage',
    position: context.nextPosition('tool-usage', currentToolScope()),
    fingerprint: `tool-usage:${stats.items[0]?.key ?? ''}`,
    usage: () => spent.stats,
    onReplay: (recorded) => {
      if (recorded.usage) applyUsage(context, recorded.usage, true);
    },
    execute: async () => {
      // A paid record counts against the cost limits it is under.
      const scopes = effectiveBudget(context).limits.map((limit) => limit.scope);
      await context.run.treeUsage.settle({ tokens: 0, microUsd: stats.costs[MICRO_USD] ?? 0 }, scopes);
      spent.stats = stats;
      await recordUsage(context, stats, { own: true });
      return null;
    },
  });
}

function checkRecord(record: ToolUsageRecord): UsageStats {
  const api = 'recordToolUsage';
  if (typeof record !== 'object' || record === null)
    throw new InvalidBudgetError(api, 'the record', 'must be an object');
  for (const field of ['name', 'unit'] as const) {
    const value = record[field];
    if (typeof value !== 'string' || value.length === 0 || value.length > MAX_TEXT)
      throw new InvalidBudgetError(api, field, `must be text of 1 to ${MAX_TEXT} characters`);
  }
  if (
    record.details !== undefined &&
    (typeof record.details !== 'string' || record.details.length > MAX_TEXT)
  )
    throw new InvalidBudgetError(api, 'details', `must be text of at most ${MAX_TEXT} characters`);
  if (typeof record.quantity !== 'number' || !Number.isFinite(record.quantity) || record.quantity < 0)
    throw new InvalidBudgetError(
      api,
      'quantity',
      `must be a finite number ≥ 0 (got ${String(record.quantity)})`,
    );
  const costs = checkCosts(record.costs, `recordToolUsage(${record.name})`);
  return toolUsageStats({ ...record, costs });
}
