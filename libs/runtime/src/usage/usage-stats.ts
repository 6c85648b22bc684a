/**
 * Usage of an agent invocation in the seed's shape (`getUsageStats()`): token totals, call
 * count, costs per billing unit (integers, e.g. `micro_usd`) and one item per model or tool,
 * merged by key (`model:<provider>:<modelId>`, `tool:<name>:<unit>:<details>`). Pure functions on
 * plain JSON values: stats are journaled and cross runs as JSON.
 */
import type { TokenUsage } from '@flotilla/ir';
import { z } from 'zod';
import { InvalidCostValueError } from '../errors/budget-errors.js';

/** One model or tool whose usage was recorded; the same key merges. */
export interface UsageItem {
  /** `model:<provider>:<modelId>` or `tool:<name>:<unit>:<details>`. */
  key: string;
  type: 'model' | 'tool';
  /** For a model: its provider and id. */
  provider?: string;
  modelId?: string;
  /** For a tool (`recordToolUsage`): its name, unit and details. */
  name?: string;
  unit?: string;
  details?: string;
  /** Model calls, or `recordToolUsage` records. */
  callCount: number;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** For a tool: the summed `quantity` (of `unit`); 0 for a model. */
  quantity: number;
  /** Integer costs per billing unit, e.g. `{ micro_usd: 1200 }`. */
  costs: Record<string, number>;
}

/** Usage totals and their items (`getUsageStats().own` / `.aggregate`). */
export interface UsageStats {
  /** Integer costs per billing unit, summed over the items. */
  costs: Record<string, number>;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** Model calls. */
  callCount: number;
  items: UsageItem[];
  /** Summed token details of the model calls (`reasoningTokens`, `cacheReadTokens` …), when any reported some. */
  details?: Record<string, number>;
}

/** `getUsageStats()`: the agent's own calls, and its own plus every descendant's (on any worker). */
export interface BudgetState {
  own: UsageStats;
  aggregate: UsageStats;
}

/** The billing unit of the price table and of `maxCostMicroUsd`. */
export const MICRO_USD = 'micro_usd';

/** Items one stats value may hold; more distinct models/tools than this are merged into the last. */
export const MAX_USAGE_ITEMS = 256;

export function emptyUsageStats(): UsageStats {
  return { costs: {}, promptTokens: 0, completionTokens: 0, totalTokens: 0, callCount: 0, items: [] };
}

/** A deep copy (stats are plain JSON: copied by shape, several times cheaper than `structuredClone`). */
export function cloneUsageStats(stats: UsageStats): UsageStats {
  const copy: UsageStats = { ...stats, costs: { ...stats.costs }, items: stats.items.map(cloneUsageItem) };
  if (stats.details) copy.details = { ...stats.details };
  return copy;
}

/** A deep copy of one item (its only nested value is `costs`). */
function cloneUsageItem(item: UsageItem): UsageItem {
  return { ...item, costs: { ...item.costs } };
}

/**
 * Checks integer costs (`calculateCost`, the price table, `recordToolUsage`) and copies them.
 * @throws InvalidCostValueError naming the unit, the source and the reason
 * @throws TypeError when `costs` is not an object of numbers
 */
export function checkCosts(costs: unknown, source: string): Record<string, number> {
  if (costs === undefined || costs === null) return {};
  if (typeof costs !== 'object' || Array.isArray(costs))
    throw new TypeError(`The costs from ${source} must be an object of integer costs per billing unit.`);
  const checked: Record<string, number> = {};
  // for…in over own keys, not Object.entries: no pair arrays (checked per model call).
  for (const unit in costs) {
    if (!Object.hasOwn(costs, unit)) continue;
    const value = (costs as Record<string, unknown>)[unit];
    if (typeof value !== 'number') throw new InvalidCostValueError(unit, source, 'not_number', value);
    if (!Number.isFinite(value)) throw new InvalidCostValueError(unit, source, 'not_finite', value);
    if (!Number.isSafeInteger(value)) throw new InvalidCostValueError(unit, source, 'not_integer', value);
    if (value < 0) throw new InvalidCostValueError(unit, source, 'negative', value);
    checked[unit] = value;
  }
  return checked;
}

/** The stats of one model call. */
export function modelCallStats(
  model: { provider: string; id: string },
  usage: TokenUsage,
  costs: Record<string, number>,
): UsageStats {
  const { promptTokens, completionTokens, totalTokens } = usage;
  // Fields written out (no spread of a tokens object): one stats value per model call.
  const item: UsageItem = {
    key: `model:${model.provider}:${model.id}`,
    type: 'model',
    provider: model.provider,
    modelId: model.id,
    callCount: 1,
    promptTokens,
    completionTokens,
    totalTokens,
    quantity: 0,
    costs: { ...costs },
  };
  const stats: UsageStats = {
    costs: { ...costs },
    promptTokens,
    completionTokens,
    totalTokens,
    callCount: 1,
    items: [item],
  };
  if (usage.details && Object.keys(usage.details).length > 0) stats.details = { ...usage.details };
  return stats;
}

/** The stats of one `recordToolUsage` record. */
export function toolUsageStats(record: {
  name: string;
  unit: string;
  quantity: number;
  details?: string | undefined;
  costs: Record<string, number>;
}): UsageStats {
  const item: UsageItem = {
    key: `tool:${record.name}:${record.unit}:${record.details ?? ''}`,
    type: 'tool',
    name: record.name,
    unit: record.unit,
    callCount: 1,
    promptTokens: 0,
    completionTokens: 0,
    totalTokens: 0,
    quantity: record.quantity,
    costs: { ...record.costs },
  };
  if (record.details !== undefined) item.details = record.details;
  return { ...emptyUsageStats(), costs: { ...record.costs }, items: [item] };
}

/** Adds `delta` into `into` (in place): totals, costs, details, and items merged by key. */
export function addUsageStats(into: UsageStats, delta: UsageStats): void {
  into.promptTokens += delta.promptTokens;
  into.completionTokens += delta.completionTokens;
  into.totalTokens += delta.totalTokens;
  into.callCount += delta.callCount;
  addCosts(into.costs, delta.costs);
  if (delta.details) {
    into.details ??= {};
    for (const [key, value] of Object.entries(delta.details))
      into.details[key] = (into.details[key] ?? 0) + value;
  }
  for (const item of delta.items) {
    const existing =
      itemWithKey(into.items, item.key) ??
      (into.items.length >= MAX_USAGE_ITEMS ? into.items[into.items.length - 1] : undefined);
    if (!existing) {
      into.items.push(cloneUsageItem(item));
      continue;
    }
    existing.callCount += item.callCount;
    existing.promptTokens += item.promptTokens;
    existing.completionTokens += item.completionTokens;
    existing.totalTokens += item.totalTokens;
    existing.quantity += item.quantity;
    addCosts(existing.costs, item.costs);
  }
}

/** The item with `key` (a loop, not `find`: no closure per item added). */
function itemWithKey(items: UsageItem[], key: string): UsageItem | undefined {
  for (const item of items) if (item.key === key) return item;
  return undefined;
}

function addCosts(into: Record<string, number>, costs: Record<string, number>): void {
  // for…in, not Object.entries: no pair arrays (stats are added per model call, at every level).
  for (const unit in costs) into[unit] = (into[unit] ?? 0) + (costs[unit] as number);
}

/**
 * Stats with totals only, for a child run that stored none (it ended before storing them, or
 * ran on an older worker): its record's token totals and model calls.
 */
export function statsFromTotals(usage: TokenUsage, modelCalls: number): UsageStats {
  const stats: UsageStats = {
    ...emptyUsageStats(),
    promptTokens: usage.promptTokens,
    completionTokens: usage.completionTokens,
    totalTokens: usage.totalTokens,
    callCount: modelCalls,
  };
  if (usage.details) stats.details = { ...usage.details };
  return stats;
}

const count = z.number().int().min(0);
const costsSchema = z
  .record(z.string().max(200), z.number().int().min(0))
  .refine((costs) => Object.keys(costs).length <= 64, 'too many billing units');
const shortText = z.string().max(1000);

/** Stats read back from Redis or a journal: checked, since they cross a boundary. */
export const usageStatsSchema = z.object({
  costs: costsSchema,
  promptTokens: count,
  completionTokens: count,
  totalTokens: count,
  callCount: count,
  items: z
    .array(
      z.object({
        key: z.string().max(2000),
        type: z.enum(['model', 'tool']),
        provider: shortText.optional(),
        modelId: shortText.optional(),
        name: shortText.optional(),
        unit: shortText.optional(),
        details: shortText.optional(),
        callCount: count,
        promptTokens: count,
        completionTokens: count,
        totalTokens: count,
        quantity: z.number().finite().min(0),
        costs: costsSchema,
      }),
    )
    .max(MAX_USAGE_ITEMS),
  details: z.record(z.string().max(200), z.number().finite()).optional(),
});
