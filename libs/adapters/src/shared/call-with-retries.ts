import { type ModelBudget, ModelCallError } from '@flotilla/runtime';
import { abortableDelay } from '@flotilla/runtime/internals';
import type { RetryPolicy } from './retry-policy.js';
import { retryDelayMs } from './retry-policy.js';

/** What {@link callWithRetries} needs besides the call itself. */
export interface CallWithRetriesOptions {
  policy: RetryPolicy;
  signal: AbortSignal | undefined;
  /**
   * Turns whatever the call threw into what the caller should see: a `ModelCallError` for
   * provider failures (its `retryable` decides), anything else is thrown as is.
   * `attempts` counts the attempts made so far, for the message.
   */
  toError: (error: unknown, attempts: number) => unknown;
  /** Checked before each retry; streaming calls refuse once a delta has been reported. @default always */
  canRetry?: () => boolean;
  /**
   * The fleet-wide budget (`ModelRequest.budget`): acquired before each retry (the runtime
   * acquired it for the first attempt), and a 429 pauses it for the fleet instead of a sleep here.
   * @default none
   */
  budget?: ModelBudget | undefined;
}

/**
 * Runs `call`, retrying retryable `ModelCallError`s up to `policy.maxRetries` times with the
 * provider's `retry-after` or exponential backoff (with a budget, a 429 pauses it for the whole
 * fleet and every retry waits for it). Throws the mapped error of the last attempt;
 * an abort during a wait throws the signal's reason.
 */
export async function callWithRetries<T>(
  call: () => Promise<T>,
  options: CallWithRetriesOptions,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      const mapped = options.toError(error, attempt);
      const retriesLeft = attempt <= options.policy.maxRetries;
      if (!ModelCallError.is(mapped) || !mapped.retryable || !retriesLeft || options.canRetry?.() === false) {
        throw mapped;
      }
      const delayMs = retryDelayMs(options.policy, attempt, mapped.retryAfterSeconds);
      if (options.budget && mapped.status === 429) await options.budget.pause(delayMs);
      else await abortableDelay(delayMs, options.signal);
      await options.budget?.acquire();
    }
  }
}
