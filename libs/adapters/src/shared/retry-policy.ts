/**
 * How a model adapter retries failed provider calls. Only retryable failures are retried
 * (429, 408, 409, 5xx, network errors; see `ModelCallError.retryable`); other 4xx fail fast.
 */
export interface RetryOptions {
  /** Retries after the first attempt; `0` disables retrying. @default 2 */
  maxRetries?: number;
  /** Delay before the first retry when the provider does not say; doubles each retry. @default 1000 */
  retryBaseDelayMs?: number;
  /** Upper bound of any wait, including a provider's `retry-after`. @default 30000 */
  maxRetryDelayMs?: number;
}

/** {@link RetryOptions} with every default filled in. */
export type RetryPolicy = Required<RetryOptions>;

/** Fills the defaults; throws a `RangeError` naming the option when a value is negative or not finite. */
export function resolveRetryPolicy(options: RetryOptions): RetryPolicy {
  const policy: RetryPolicy = {
    maxRetries: options.maxRetries ?? 2,
    retryBaseDelayMs: options.retryBaseDelayMs ?? 1000,
    maxRetryDelayMs: options.maxRetryDelayMs ?? 30_000,
  };
  for (const [name, value] of Object.entries(policy)) {
    if (!Number.isFinite(value) || value < 0) {
      throw new RangeError(`${name} must be a finite number >= 0, got ${value}.`);
    }
  }
  return policy;
}

/**
 * The wait before retry number `retry` (1-based): the provider's `retry-after` when given,
 * else exponential backoff with jitter; never more than `maxRetryDelayMs`.
 */
export function retryDelayMs(
  policy: RetryPolicy,
  retry: number,
  retryAfterSeconds: number | undefined,
): number {
  if (retryAfterSeconds !== undefined) return Math.min(retryAfterSeconds * 1000, policy.maxRetryDelayMs);
  const backoff = policy.retryBaseDelayMs * 2 ** (retry - 1);
  // Jitter spreads the retries of many workers that hit the same limit at the same moment.
  const jittered = backoff * (0.5 + Math.random() / 2);
  return Math.min(jittered, policy.maxRetryDelayMs);
}
