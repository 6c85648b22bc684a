import type { ModelDelta, ModelRequest, ModelResponse } from '@flotilla/runtime';
import { callWithRetries } from './call-with-retries.js';
import type { RetryPolicy } from './retry-policy.js';

/** How a model adapter makes one provider call and reads its failures. */
export interface GenerateAttempt {
  /**
   * Makes one provider call for the request; streams through `onDelta` when it is given (it is
   * exactly when the request has an `onDelta`).
   */
  call: (onDelta: ((delta: ModelDelta) => void) | undefined) => Promise<ModelResponse>;
  /** Maps what the call threw (see `CallWithRetriesOptions.toError`). */
  toError: (error: unknown, attempts: number) => unknown;
}

/**
 * The body of every model adapter's `generate`: runs the call with {@link callWithRetries} under
 * `policy` and `request.signal`, and stops retrying a stream once a delta has reached the
 * caller, who would otherwise see the same text twice.
 */
export function generateWithRetries(
  request: ModelRequest,
  policy: RetryPolicy,
  { call, toError }: GenerateAttempt,
): Promise<ModelResponse> {
  let streamed = false;
  const onDelta = request.onDelta
    ? (delta: ModelDelta): void => {
        streamed = true;
        request.onDelta?.(delta);
      }
    : undefined;
  return callWithRetries(() => call(onDelta), {
    policy,
    signal: request.signal,
    toError,
    canRetry: () => !streamed,
    budget: request.budget,
  });
}
