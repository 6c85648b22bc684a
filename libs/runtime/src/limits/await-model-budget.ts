/**
 * `awaitModelBudget`: the one place a model call waits for its provider/model's fleet-wide
 * budget. It reserves a time to go (`ModelBudgets.reserve`, one round trip) and sleeps until
 * then; a time further away than {@link RESERVE_HORIZON_MS} is not reserved, the call sleeps
 * towards it and asks again. The wait happens in the worker slot (see the runtime README,
 * "Schedules and limits"); it ends early when the run is cancelled or times out (`signal`), and
 * past the limits' `maxWaitMs` the call fails with `RateLimitWaitError`.
 */
import { abortableDelay } from '../shared/abortable-delay.js';
import type { BudgetedModel, ModelBudgets } from './model-budgets.js';
import type { ResolvedModelLimits } from './model-limits.js';
import { RateLimitWaitError } from './rate-limit-wait-error.js';

/** The furthest ahead a call reserves its time to go (what a call that gives up may waste). */
export const RESERVE_HORIZON_MS = 5000;

/** One wait for the budget, as the run reports it (event and record). */
export interface BudgetWait {
  provider: string;
  modelId: string;
  /** How long the call waits now. */
  waitMs: number;
  /** `limit`: the rpm / tpm spacing; `retry-after`: a 429 paused the budget. */
  reason: 'limit' | 'retry-after';
}

export interface ModelBudgetCall {
  budgets: ModelBudgets;
  model: BudgetedModel;
  limits: ResolvedModelLimits;
  /** The tokens the request is estimated to use. */
  tokens: number;
  /** Aborted when the run is cancelled or past its deadline: the wait ends with its reason. */
  signal: AbortSignal | undefined;
  /** Called before each wait longer than 0 ms. */
  onWait?: (wait: BudgetWait) => Promise<void> | void;
  /** Called once after the call waited (not when it went at once). */
  onWaitEnd?: () => Promise<void> | void;
}

/**
 * Resolves when the call may go.
 * @throws RateLimitWaitError past `limits.maxWaitMs`
 * @throws the signal's reason when the run is cancelled or times out
 */
export async function awaitModelBudget(call: ModelBudgetCall): Promise<void> {
  const startedAt = Date.now();
  let waited = false;
  try {
    for (;;) {
      call.signal?.throwIfAborted();
      const reservation = await call.budgets.reserve(
        call.model,
        call.limits,
        call.tokens,
        RESERVE_HORIZON_MS,
      );
      const spent = Date.now() - startedAt;
      if (reservation.waitMs === 0) return;
      if (spent + reservation.waitMs > call.limits.maxWaitMs)
        throw new RateLimitWaitError(`${call.model.provider}/${call.model.id}`, spent);
      waited = true;
      await call.onWait?.({
        provider: call.model.provider,
        modelId: call.model.id,
        waitMs: reservation.waitMs,
        reason: reservation.pausedMs > 0 ? 'retry-after' : 'limit',
      });
      // Unreserved: sleep towards the time, leaving a horizon to reserve it then.
      const sleepMs = reservation.reserved
        ? reservation.waitMs
        : Math.max(50, reservation.waitMs - RESERVE_HORIZON_MS / 2);
      await abortableDelay(sleepMs, call.signal);
      if (reservation.reserved) return;
    }
  } finally {
    if (waited) await call.onWaitEnd?.();
  }
}

/**
 * A request's tokens, estimated before it goes (about 4 characters a token, plus a reply
 * allowance); `settle` corrects the budget by the real usage.
 */
export function estimateRequestTokens(request: { messages: readonly unknown[] }): number {
  const characters = JSON.stringify(request.messages).length;
  return Math.ceil(characters / 4) + ESTIMATED_REPLY_TOKENS;
}

/** Tokens a reply is assumed to use before its usage is known. */
const ESTIMATED_REPLY_TOKENS = 256;
