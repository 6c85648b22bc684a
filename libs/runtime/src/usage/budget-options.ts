/**
 * `equipBudget` options, checked once: usage callbacks, the tree limits and the price table.
 * Limits are positive safe integers (tokens, micro-USD); prices are integer micro-USD per
 * million tokens, keyed `'<provider>/<modelId>'` or `'<modelId>'`.
 */
import type { TokenUsage } from '@flotilla/ir';
import { InvalidBudgetError } from '../errors/budget-errors.js';
import type { UsageStats } from './usage-stats.js';

/** What an `onUpdate` callback receives (deep copies). */
export interface BudgetUpdate {
  /** What this record added: one model call, one tool record, or a finished child run's usage. */
  delta: UsageStats;
  /** The usage of this callback's agent and all its descendants. */
  aggregate: UsageStats;
  /** The usage of this callback's agent's own calls. */
  own: UsageStats;
}

/** The price of one model, in integer micro-USD (1 USD = 1,000,000) per million tokens. */
export interface ModelPrice {
  /** Per million prompt (input) tokens, e.g. 400_000 for $0.40 / 1M. */
  inputMicroUsdPerMillionTokens: number;
  /** Per million completion (output) tokens, reasoning included. */
  outputMicroUsdPerMillionTokens: number;
}

/** Prices keyed `'<provider>/<modelId>'` (tried first) or `'<modelId>'`. */
export type PriceTable = Record<string, ModelPrice>;

export interface BudgetOptions {
  /** Called after each usage record of this agent or a descendant, child-first, in registration order. */
  onUpdate?: (update: BudgetUpdate) => void | Promise<void>;
  /** At most this many tokens (prompt + completion) for the whole run tree. @default none */
  maxTokens?: number;
  /** At most this many micro-USD (`micro_usd` costs) for the whole run tree. @default none */
  maxCostMicroUsd?: number;
  /** Prices of the models this agent and its descendants call (nearest table wins per key). @default none */
  prices?: PriceTable;
}

/** Usage limits of `equipBudget`. */
export interface BudgetLimits {
  maxTokens?: number;
  maxCostMicroUsd?: number;
}

/**
 * The limits one agent invocation set (its `equipBudget` calls, the smallest of each), with the
 * counter they are checked against: `scope` names the spend of that invocation and everything
 * under it, on any worker, from the moment the limit was set. Travels to child runs.
 */
export interface ScopedLimit extends BudgetLimits {
  /** 16 hex digits: a hash of the setting invocation's run id and callPath. */
  scope: string;
  /** The callPath of the invocation whose `equipBudget` set the limit. */
  setBy: string;
}

/** Checked `equipBudget` options. */
export interface ResolvedBudget extends BudgetLimits {
  onUpdate?: (update: BudgetUpdate) => void | Promise<void>;
  prices?: PriceTable;
}

/** Price table entries one table may hold (it travels in child jobs). */
export const MAX_PRICE_ENTRIES = 256;
/** Price entries a child run may inherit (the tables of its chain merged, in its job data). */
export const MAX_INHERITED_PRICE_ENTRIES = 1024;
/** Scoped limits a child run may inherit (one per ancestor invocation that set any; depth is at most 50). */
export const MAX_INHERITED_LIMITS = 64;
const MAX_PRICE_KEY_LENGTH = 500;
/** $1,000,000 per million tokens: anything above is a unit mistake. */
const MAX_MICRO_USD_PER_MILLION = 1_000_000_000_000;

/**
 * @throws InvalidBudgetError naming the option
 */
export function resolveBudget(options: BudgetOptions, apiName = 'equipBudget'): ResolvedBudget {
  if (typeof options !== 'object' || options === null)
    throw new InvalidBudgetError(apiName, 'options', 'must be an object');
  const resolved: ResolvedBudget = {};
  if (options.onUpdate !== undefined) {
    if (typeof options.onUpdate !== 'function')
      throw new InvalidBudgetError(apiName, 'onUpdate', 'must be a function');
    resolved.onUpdate = options.onUpdate;
  }
  for (const option of ['maxTokens', 'maxCostMicroUsd'] as const) {
    const value = options[option];
    if (value === undefined) continue;
    checkPositiveInteger(apiName, option, value);
    resolved[option] = value;
  }
  if (options.prices !== undefined) resolved.prices = checkPriceTable(options.prices, apiName, 'prices');
  return resolved;
}

/**
 * @throws InvalidBudgetError naming the entry
 */
export function checkPriceTable(prices: unknown, apiName: string, option: string): PriceTable {
  if (typeof prices !== 'object' || prices === null || Array.isArray(prices))
    throw new InvalidBudgetError(
      apiName,
      option,
      "must be an object keyed '<provider>/<modelId>' or '<modelId>'",
    );
  const entries = Object.entries(prices);
  if (entries.length > MAX_PRICE_ENTRIES)
    throw new InvalidBudgetError(apiName, option, `must hold at most ${MAX_PRICE_ENTRIES} models`);
  const table: PriceTable = {};
  for (const [key, price] of entries) {
    const at = `${option}[${JSON.stringify(key)}]`;
    if (key.length === 0 || key.length > MAX_PRICE_KEY_LENGTH)
      throw new InvalidBudgetError(apiName, at, `must have a key of 1 to ${MAX_PRICE_KEY_LENGTH} characters`);
    if (typeof price !== 'object' || price === null)
      throw new InvalidBudgetError(
        apiName,
        at,
        'must be { inputMicroUsdPerMillionTokens, outputMicroUsdPerMillionTokens }',
      );
    const checked = {} as ModelPrice;
    for (const field of ['inputMicroUsdPerMillionTokens', 'outputMicroUsdPerMillionTokens'] as const) {
      const value = (price as Record<string, unknown>)[field];
      if (
        typeof value !== 'number' ||
        !Number.isSafeInteger(value) ||
        value < 0 ||
        value > MAX_MICRO_USD_PER_MILLION
      )
        throw new InvalidBudgetError(
          apiName,
          `${at}.${field}`,
          `must be a whole number of micro-USD per million tokens from 0 to ${MAX_MICRO_USD_PER_MILLION} (got ${String(value)})`,
        );
      checked[field] = value;
    }
    table[key] = checked;
  }
  return table;
}

function checkPositiveInteger(apiName: string, option: string, value: unknown): void {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0)
    throw new InvalidBudgetError(apiName, option, `must be a positive safe integer (got ${String(value)})`);
}

/** The entry for a model: `'<provider>/<modelId>'` first, then `'<modelId>'`. */
export function priceOf(
  prices: PriceTable | undefined,
  model: { provider: string; id: string },
): ModelPrice | undefined {
  if (!prices) return undefined;
  return prices[`${model.provider}/${model.id}`] ?? prices[model.id];
}

/** Micro-USD of `tokens` at `perMillion`, rounded up (a fraction of a micro-USD counts as one). */
function microUsdOf(tokens: number, perMillion: number): bigint {
  return BigInt(Math.max(0, Math.trunc(tokens))) * BigInt(perMillion);
}

/** The cost of a call in micro-USD, rounded up: prompt and completion tokens at their prices. */
export function costOfUsage(
  price: ModelPrice,
  usage: Pick<TokenUsage, 'promptTokens' | 'completionTokens'>,
): number {
  const total =
    microUsdOf(usage.promptTokens, price.inputMicroUsdPerMillionTokens) +
    microUsdOf(usage.completionTokens, price.outputMicroUsdPerMillionTokens);
  return Number((total + 999_999n) / 1_000_000n);
}
