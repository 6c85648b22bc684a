/**
 * Usage budgets (`equipBudget`, `getUsageStats`, `recordToolUsage`) at the model call path:
 * before each live model call the run tree's spend is checked against the limits this agent,
 * its ancestors in the run and the ancestors of the run (inherited through job data) set;
 * after it, its usage is priced, counted for the tree (once, fleet-wide) and recorded in the
 * calling invocation (own + aggregate) and every ancestor in the run (aggregate), whose
 * `onUpdate` callbacks run child-first. A replay rebuilds the same stats from the journal
 * without counting, calling back or emitting anything.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { TokenUsage } from '@flotilla/ir';
import { PromptTokenCounter } from '../budget/prompt-token-counter.js';
import type { AgentContext } from '../context/agent-context.js';
import { frameSlot } from '../context/async-frame.js';
import { runInAgentContext } from '../context/context-store.js';
import type { JournalEntry } from '../context/journal-entry.js';
import { BudgetExceededError } from '../errors/budget-errors.js';
import type { ModelAdapter, ModelRequest, ModelResponse } from '../model/model-adapter.js';
import { SETTLED } from '../shared/settled.js';
import {
  type BudgetLimits,
  type BudgetUpdate,
  costOfUsage,
  type PriceTable,
  priceOf,
  type ScopedLimit,
} from '../usage/budget-options.js';
import {
  addUsageStats,
  checkCosts,
  cloneUsageStats,
  emptyUsageStats,
  MICRO_USD,
  modelCallStats,
  type UsageStats,
} from '../usage/usage-stats.js';

/** The limits and prices a call of `context` is held to. */
export interface EffectiveBudget {
  /** One per invocation on the chain that set limits (ancestor runs' first), outermost first. */
  limits: ScopedLimit[];
  prices: PriceTable;
}

/**
 * The limits of every invocation on the chain (this run's, and the ancestors of the run through
 * `RunServices.budget`), each with its own scope, and the price table merged from the root down
 * (the nearest entry wins).
 */
export function effectiveBudget(context: AgentContext): EffectiveBudget {
  const inherited = context.run.services.budget;
  // No limit or price anywhere (the usual case): nothing to merge, every model call asks.
  if (!hasEntries(inherited?.limits) && !hasEntries(inherited?.prices) && !watched(context)) return NO_BUDGET;
  const limits: ScopedLimit[] = [...(inherited?.limits ?? [])];
  const prices: PriceTable = { ...inherited?.prices };
  const chain: AgentContext[] = [];
  for (let at: AgentContext | undefined = context; at; at = at.parent) chain.unshift(at);
  for (const level of chain) {
    const own: BudgetLimits = {};
    for (const budget of level.draft.budgets) {
      for (const key of ['maxTokens', 'maxCostMicroUsd'] as const) {
        const value = budget[key];
        if (value !== undefined) own[key] = Math.min(own[key] ?? value, value);
      }
      Object.assign(prices, budget.prices);
    }
    if (own.maxTokens !== undefined || own.maxCostMicroUsd !== undefined)
      limits.push({ scope: limitScope(context.run.runId, level.callPath), setBy: level.callPath, ...own });
  }
  return { limits, prices };
}

/** The budget of a call under no limit and no price (shared: never changed). */
const NO_BUDGET: EffectiveBudget = Object.freeze({
  limits: Object.freeze([]) as unknown as ScopedLimit[],
  prices: Object.freeze({}) as PriceTable,
});

function hasEntries(collection: object | undefined): boolean {
  for (const _ in collection) return true;
  return false;
}

/** The scope of the limits an invocation sets: 16 hex digits of its run id and callPath. */
export function limitScope(runId: string, callPath: string): string {
  return createHash('sha256').update(`${runId}\n${callPath}`).digest('hex').slice(0, 16);
}

/** Whether usage records of `context` are watched: an `equipBudget` on its chain, or limits inherited. */
function watched(context: AgentContext): boolean {
  if ((context.run.services.budget?.limits?.length ?? 0) > 0) return true;
  for (let level: AgentContext | undefined = context; level; level = level.parent)
    if (level.draft.budgets.length > 0) return true;
  return false;
}

/**
 * Makes one live model call (a turn, or a summary of the context budget) within the run tree's
 * usage limits, and accounts it. Under limits (this agent's or an ancestor's, on any worker),
 * the call first reserves its estimate in each limit's scope (fleet-wide, calls in flight
 * count): this prompt's tokens (the adapter's `countTokens`, else `estimateTokens`) and their
 * price; refused when in a scope the spend, what is in flight and the estimate would pass
 * `maxTokens` or `maxCostMicroUsd` (the completion cannot be known before). After the call its
 * real usage is priced, settled in the scopes and the run, and recorded as the invocation's own
 * usage (callbacks, event). A failed call releases its reservation. No limit: no counter write.
 * @throws BudgetExceededError without calling the model
 * @throws InvalidCostValueError from `calculateCost`; whatever an `onUpdate` or the call throws
 */
export function callWithinUsageBudget(
  context: AgentContext,
  model: ModelAdapter,
  request: Pick<ModelRequest, 'messages' | 'tools'>,
  call: () => Promise<ModelResponse>,
  journaled: { stats?: UsageStats },
): Promise<ModelResponse> {
  return callWithinUsageBudgetThen(context, model, request, call, answeredAsIs, journaled);
}

/** The caller's own work on the model's answer, in {@link callWithinUsageBudgetThen}'s `.then`. */
export interface CallAnswer<G> {
  /** The checked response of the call's answer (its throw fails the call: call `failed` first). */
  answer: (generated: G) => ModelResponse;
  /** The call's rejection (or synchronous throw) handler: rethrows. */
  failed: (error: unknown) => never;
}

const answeredAsIs: CallAnswer<ModelResponse> = {
  answer: (response) => response,
  failed: (error) => {
    throw error;
  },
};

/**
 * {@link callWithinUsageBudget}, with the caller's check of the answer (`answered`) in the same
 * `.then` as the account: a model turn's check needs no `.then` (and promise) of its own.
 */
export function callWithinUsageBudgetThen<G>(
  context: AgentContext,
  model: ModelAdapter,
  request: Pick<ModelRequest, 'messages' | 'tools'>,
  call: () => Promise<G>,
  answered: CallAnswer<G>,
  journaled: { stats?: UsageStats },
): Promise<ModelResponse> {
  let budget: EffectiveBudget;
  try {
    budget = effectiveBudget(context);
  } catch (error) {
    return Promise.reject(error);
  }
  const { answer, failed } = answered;
  // Under no limit (the usual case) nothing is reserved or settled: the call and one `.then`.
  if (budget.limits.length > 0)
    return callReserved(context, model, request, () => called(call).then(answer, failed), journaled, budget);
  return called(call).then((generated) => {
    const response = answer(generated);
    const accounted = accountCall(context, model, response, budget.prices, journaled);
    return accounted === SETTLED ? response : accounted.then(() => response);
  }, failed);
}

/** The call's promise, a synchronous throw as a rejection. */
function called<G>(call: () => Promise<G>): Promise<G> {
  try {
    return call();
  } catch (error) {
    return Promise.reject(error);
  }
}

/** {@link callWithinUsageBudget} under limits: reserved first, settled in the scopes after. */
async function callReserved(
  context: AgentContext,
  model: ModelAdapter,
  request: Pick<ModelRequest, 'messages' | 'tools'>,
  call: () => Promise<ModelResponse>,
  journaled: { stats?: UsageStats },
  { limits, prices }: EffectiveBudget,
): Promise<ModelResponse> {
  const scopes = limits.map((limit) => limit.scope);
  const tree = context.run.treeUsage;
  const reservation = await reserveForCall(context, model, request, limits, prices);
  let response: ModelResponse;
  try {
    response = await call();
  } catch (error) {
    if (reservation !== undefined) await tree.release(reservation, scopes).catch(() => {});
    throw error;
  }
  const { usage } = response;
  context.run.addModelCall(usage);
  let costs: Record<string, number>;
  try {
    costs = costsOfCall(prices, model, usage);
  } catch (error) {
    // Tokens were spent even when their cost cannot be read.
    await tree.settle({ tokens: usage.totalTokens, microUsd: 0 }, scopes, reservation);
    throw error;
  }
  await tree.settle({ tokens: usage.totalTokens, microUsd: costs[MICRO_USD] ?? 0 }, scopes, reservation);
  await recordCall(context, model, usage, costs, journaled);
  return response;
}

/**
 * Accounts a call made under no limit: counted in the run, priced, recorded (own + aggregate).
 * @throws InvalidCostValueError from `calculateCost` (the tokens are counted first)
 */
function accountCall(
  context: AgentContext,
  model: ModelAdapter,
  response: ModelResponse,
  prices: PriceTable,
  journaled: { stats?: UsageStats },
): Promise<void> {
  const { usage } = response;
  context.run.addModelCall(usage);
  return recordCall(context, model, usage, costsOfCall(prices, model, usage), journaled);
}

function recordCall(
  context: AgentContext,
  model: ModelAdapter,
  usage: TokenUsage,
  costs: Record<string, number>,
  journaled: { stats?: UsageStats },
): Promise<void> {
  const stats = modelCallStats(model, usage, costs);
  journaled.stats = stats;
  return recordUsage(context, stats, { own: true });
}

/**
 * Reserves the call's estimate when a limit is set on the chain; the reservation's id.
 * @throws BudgetExceededError when the tree cannot take it
 */
async function reserveForCall(
  context: AgentContext,
  model: ModelAdapter,
  request: Pick<ModelRequest, 'messages' | 'tools'>,
  limits: ScopedLimit[],
  prices: PriceTable,
): Promise<string | undefined> {
  if (limits.length === 0) return undefined;
  const promptTokens = await new PromptTokenCounter(model, request.tools).counted(request.messages);
  const price = priceOf(prices, model);
  const estimate = {
    tokens: promptTokens,
    microUsd: price ? costOfUsage(price, { promptTokens, completionTokens: 0 }) : 0,
  };
  const id = randomUUID();
  const tree = context.run.treeUsage;
  const reservation = await tree.reserve(id, estimate, limits);
  if (!reservation.ok) {
    const { ok: _ok, refusedBy, ...refusal } = reservation;
    throw new BudgetExceededError({ ...refusal, setBy: refusedBy.setBy, rootRunId: tree.rootRunId });
  }
  return id;
}

/**
 * The integer costs of a call: the price table's entry for the model when there is one (it is
 * the user's, nearest the call), else the adapter's `calculateCost`, else none.
 * @throws InvalidCostValueError when `calculateCost` answers something that is not integer costs
 */
export function costsOfCall(
  prices: PriceTable,
  model: ModelAdapter,
  usage: TokenUsage,
): Record<string, number> {
  // No table, no lookup (a key written per call costs more than the empty table's answer).
  const price = prices === NO_BUDGET.prices ? undefined : priceOf(prices, model);
  if (price) return { [MICRO_USD]: costOfUsage(price, usage) };
  if (!model.calculateCost) return {};
  return checkCosts(model.calculateCost(usage), `calculateCost of ${model.provider}/${model.id}`);
}

/**
 * Records `delta` in `context` (its own usage too when `own`) and in every ancestor of the run
 * (aggregate); then, child-first and in registration order, each level's `onUpdate` callbacks
 * run inside their level's context with deep copies, and one `budget-update` event is emitted.
 * @throws whatever an `onUpdate` throws (the rest of the callbacks do not run)
 */
export function recordUsage(
  context: AgentContext,
  delta: UsageStats,
  options: { own: boolean },
): Promise<void> {
  try {
    applyUsage(context, delta, options.own);
    // Unwatched (no limit, no callback: the usual case) it is silent, and needs no promise.
    if (!watched(context)) return SETTLED;
  } catch (error) {
    return Promise.reject(error);
  }
  return notifyUsage(context, delta);
}

/** The `budget-update` event and the `onUpdate` callbacks of {@link recordUsage}. */
async function notifyUsage(context: AgentContext, delta: UsageStats): Promise<void> {
  context.run.emit({
    type: 'budget-update',
    callPath: context.callPath,
    delta: cloneUsageStats(delta),
    own: cloneUsageStats(context.usage.own),
    aggregate: cloneUsageStats(context.usage.aggregate),
  });
  for (let level: AgentContext | undefined = context; level; level = level.parent) {
    for (const budget of [...level.draft.budgets]) {
      const onUpdate = budget.onUpdate;
      if (!onUpdate) continue;
      const update: BudgetUpdate = {
        delta: cloneUsageStats(delta),
        aggregate: cloneUsageStats(level.usage.aggregate),
        own: cloneUsageStats(level.usage.own),
      };
      await runInAgentContext(level, () => onUpdate(update));
    }
  }
}

/**
 * Adds `delta` to `context` (own too when `own`) and every ancestor's aggregate, and to every
 * capture open around the caller (a tool execution: {@link captureUsage}). Silent by itself: a
 * replay rebuilding what an earlier execution recorded calls only this.
 */
export function applyUsage(context: AgentContext, delta: UsageStats, own: boolean): void {
  if (own) addUsageStats(context.usage.own, delta);
  for (let level: AgentContext | undefined = context; level; level = level.parent)
    addUsageStats(level.usage.aggregate, delta);
  for (let capture = usageCaptures.get(); capture; capture = capture.outer) {
    if (own && capture.context === context) addUsageStats(capture.own, delta);
    for (let level: AgentContext | undefined = context; level; level = level.parent)
      if (level === capture.context) addUsageStats(capture.aggregate, delta);
  }
}

/** The usage recorded for `context` while a step (a tool execution) ran: journaled with the step. */
export interface UsageCapture {
  readonly context: AgentContext;
  readonly own: UsageStats;
  readonly aggregate: UsageStats;
  /** The capture of an enclosing step (a tool of an ancestor that called this agent). */
  readonly outer: UsageCapture | undefined;
}

/** A slot of the process-wide async frame (`context/async-frame.ts`), not a storage of its own. */
const usageCaptures = frameSlot<UsageCapture>('usage');

/**
 * Runs `fn` (a tool handler) capturing the usage it records for `context` (its
 * `recordToolUsage` calls, child agents it calls), so the step can journal it: a replay that
 * serves the tool from the journal never runs it, and rebuilds its usage from the capture.
 */
export function captureUsage<T>(
  context: AgentContext,
  fn: () => Promise<T>,
): { capture: UsageCapture; result: Promise<T> } {
  const capture: UsageCapture = {
    context,
    own: emptyUsageStats(),
    aggregate: emptyUsageStats(),
    outer: usageCaptures.get(),
  };
  return { capture, result: usageCaptures.run(capture, fn) };
}

/** A capture as a journal entry holds it (`usage` = aggregate, `ownUsage` = own); none when empty. */
export function capturedUsage(capture: UsageCapture): Pick<JournalEntry, 'usage' | 'ownUsage'> | undefined {
  if (capture.aggregate.items.length === 0 && capture.aggregate.callCount === 0) return undefined;
  const recorded: Pick<JournalEntry, 'usage' | 'ownUsage'> = { usage: cloneUsageStats(capture.aggregate) };
  if (capture.own.items.length > 0) recorded.ownUsage = cloneUsageStats(capture.own);
  return recorded;
}

/** Rebuilds a replayed step's captured usage (see {@link capturedUsage}). */
export function replayCapturedUsage(context: AgentContext, recorded: JournalEntry): void {
  if (!recorded.usage) return;
  // Own first, then the aggregate chain (applyUsage with own=false adds the aggregate only).
  if (recorded.ownUsage) addUsageStats(context.usage.own, recorded.ownUsage);
  applyUsage(context, recorded.usage, false);
}

/**
 * Rebuilds a replayed model turn's usage from its response's tokens and its journaled costs (an
 * entry written before costs were journaled has none). A refused turn spent nothing.
 */
export function replayModelUsage(context: AgentContext, model: ModelAdapter, recorded: JournalEntry): void {
  if (!recorded.outcome.ok) return;
  const usage = (recorded.outcome.value as { usage?: TokenUsage } | undefined)?.usage;
  if (usage) applyUsage(context, modelCallStats(model, usage, recorded.costs ?? {}), true);
}
