/**
 * `awaitModelBudget`: the one place a model call waits for its provider/model's fleet-wide
 * budget. It reserves a time to go (`ModelBudgets.reserve`, one round trip) and sleeps until
 * then; a time further away than {@link RESERVE_HORIZON_MS} is not reserved: with `park` (a
 * model call on a worker) the run is parked without its slot (`engine/suspend-until.ts`) and
 * looks again when it is replayed near that time, else the call sleeps towards it in its slot
 * and asks again. A wait ends early when the run is cancelled or times out (`signal`), and past
 * the limits' `maxWaitMs` the call fails with `RateLimitWaitError`.
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
  /**
   * Parks the run until `wakeAt` instead of a long wait in the slot (it does not resolve on a
   * worker: the run is replayed later and the call asks again). @default waits in the slot
   */
  park?: (wait: BudgetWait, wakeAt: number) => Promise<void>;
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
      const wait: BudgetWait = {
        provider: call.model.provider,
        modelId: call.model.id,
        waitMs: reservation.waitMs,
        reason: reservation.pausedMs > 0 ? 'retry-after' : 'limit',
      };
      // A long wait holds no slot: the run parks and asks again when it is replayed.
      if (!reservation.reserved && call.park) {
        await call.park(wait, Date.now() + reservation.waitMs - RESERVE_HORIZON_MS / 2);
        continue;
      }
      waited = true;
      await call.onWait?.(wait);
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
