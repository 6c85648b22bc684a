/**
 * The budgets one run's model calls draw on (`RunServices.modelBudgets`): the limits of a model
 * come from its adapter (`limits`), else from the worker's `modelLimits` table (by
 * `<provider>/<modelId>`, then by `<modelId>`). While a call waits the run says so: an event
 * per wait (reported to the engine) and, for a wait of {@link MARKED_WAIT_MS} or more,
 * `waitingFor: { kind: 'rate-limit' }` on its record until the call goes.
 */
import type { TokenUsage } from '@flotilla/ir';
import type { ModelAdapter, ModelBudget, ModelRequest } from '../model/model-adapter.js';
import type { RedisRunRecords } from '../runs/redis-run-records.js';
import { awaitModelBudget, type BudgetWait, estimateRequestTokens } from './await-model-budget.js';
import type { ModelBudgets } from './model-budgets.js';
import { type ResolvedModelLimits, resolveModelLimits } from './model-limits.js';

/** A wait at least this long is shown on the run's record (shorter ones only as events). */
export const MARKED_WAIT_MS = 250;

/** One model call's budget: {@link ModelBudget} plus the correction by its real usage. */
export interface CallBudget extends ModelBudget {
  /** Like `acquire`, but a long wait parks the run (`park`) instead of holding the slot. */
  acquireOrPark(park: ((wait: BudgetWait, wakeAt: number) => Promise<void>) | undefined): Promise<void>;
  settle(usage: TokenUsage): Promise<void>;
}

/** What the engine asks for each model call (see `RunServices.modelBudgets`). */
export interface RunModelBudgets {
  /** The call's budget, or `undefined` when its model has no limits. `report` hears every wait. */
  budgetFor(
    model: ModelAdapter,
    request: ModelRequest,
    report: (wait: BudgetWait) => void,
  ): CallBudget | undefined;
}

/** Limits resolved once per adapter object (adapters check theirs at creation; others are checked here). */
const resolvedOfAdapter = new WeakMap<ModelAdapter, ResolvedModelLimits>();

/** The limits a model call draws on, or `undefined`. */
export function limitsOf(
  model: ModelAdapter,
  table: ReadonlyMap<string, ResolvedModelLimits>,
): ResolvedModelLimits | undefined {
  if (model.limits !== undefined) {
    let resolved = resolvedOfAdapter.get(model);
    if (!resolved) {
      resolved = resolveModelLimits(model.limits, `model ${model.provider}/${model.id}`);
      resolvedOfAdapter.set(model, resolved);
    }
    return resolved;
  }
  return table.get(`${model.provider}/${model.id}`) ?? table.get(model.id);
}

/**
 * Checks a worker's `modelLimits` table (keys `<provider>/<modelId>` or `<modelId>`).
 * @throws InvalidModelLimitsError naming the entry and field
 */
export function resolveModelLimitsTable(
  table: Readonly<Record<string, unknown>> | undefined,
): ReadonlyMap<string, ResolvedModelLimits> {
  const resolved = new Map<string, ResolvedModelLimits>();
  for (const [model, limits] of Object.entries(table ?? {}))
    resolved.set(model, resolveModelLimits(limits, `modelLimits["${model}"]`));
  return resolved;
}

export class FleetModelBudgets implements RunModelBudgets {
  readonly #options: {
    budgets: ModelBudgets;
    table: ReadonlyMap<string, ResolvedModelLimits>;
    records: RedisRunRecords;
    runId: string;
    attempt: string;
  };

  constructor(options: {
    budgets: ModelBudgets;
    table: ReadonlyMap<string, ResolvedModelLimits>;
    records: RedisRunRecords;
    runId: string;
    attempt: string;
  }) {
    this.#options = options;
  }

  budgetFor(
    model: ModelAdapter,
    request: ModelRequest,
    report: (wait: BudgetWait) => void,
  ): CallBudget | undefined {
    const { budgets, table, records, runId, attempt } = this.#options;
    const limits = limitsOf(model, table);
    if (!limits) return undefined;
    const tokens = estimateRequestTokens(request);
    const budgeted = { provider: model.provider, id: model.id };
    let marked = false;
    const acquireOrPark = (park: ((wait: BudgetWait, wakeAt: number) => Promise<void>) | undefined) =>
      awaitModelBudget({
        ...{ budgets, model: budgeted, limits, tokens, signal: request.signal },
        ...(park && { park }),
        onWait: async (wait) => {
          report(wait);
          if (marked || wait.waitMs < MARKED_WAIT_MS) return;
          marked = true;
          await records.markWaiting(
            runId,
            { kind: 'rate-limit', detail: describeWait(wait, limits) },
            attempt,
          );
        },
        onWaitEnd: async () => {
          if (!marked) return;
          marked = false;
          await records.markWaiting(runId, undefined, attempt);
        },
      });
    return {
      acquire: () => acquireOrPark(undefined),
      acquireOrPark,
      pause: (retryAfterMs) => budgets.pause(budgeted, retryAfterMs),
      settle: (usage) => budgets.settle(budgeted, limits, tokens, usage.totalTokens),
    };
  }
}

/** `openai/gpt-4.1-mini (rpm 600, tpm 100000)`, or `… (paused by a 429 for 2000 ms)`. */
function describeWait(wait: BudgetWait, limits: ResolvedModelLimits): string {
  const model = `${wait.provider}/${wait.modelId}`;
  if (wait.reason === 'retry-after') return `${model} (paused by a 429 for ${wait.waitMs} ms)`;
  const parts = [
    ...(limits.rpm === undefined ? [] : [`rpm ${limits.rpm}`]),
    ...(limits.tpm === undefined ? [] : [`tpm ${limits.tpm}`]),
  ];
  return `${model} (${parts.join(', ')})`;
}
