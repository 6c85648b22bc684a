import { ModelCallError } from '@flotilla/runtime';

/** What an adapter knows about one failed provider call. */
export interface ProviderFailure {
  provider: string;
  modelId: string;
  /** What was called, e.g. `chat.completions`. */
  endpoint: string;
  /** HTTP status; `undefined` for network failures. */
  status: number | undefined;
  /** The provider's own words. */
  detail: string;
  retryAfterSeconds: number | undefined;
  /** Attempts made, retries included. */
  attempts: number;
  cause: unknown;
  /** Overrides the status-derived flag (e.g. a failed Responses run that names its cause). */
  retryable?: boolean;
}

/**
 * Builds the {@link ModelCallError} for a failed provider call, with a message that says what
 * went wrong and what to try next.
 */
export function providerFailureError(failure: ProviderFailure): ModelCallError {
  const what =
    failure.status === undefined ? 'could not reach the provider' : `failed with HTTP ${failure.status}`;
  const tries = failure.attempts > 1 ? ` after ${failure.attempts} attempts` : '';
  const message = `${failure.provider} ${failure.endpoint} call for model "${failure.modelId}" ${what}${tries}: ${failure.detail}. ${hint(failure)}`;
  return new ModelCallError({
    provider: failure.provider,
    modelId: failure.modelId,
    message,
    ...(failure.status === undefined ? {} : { status: failure.status }),
    ...(failure.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: failure.retryAfterSeconds }),
    ...(failure.retryable === undefined ? {} : { retryable: failure.retryable }),
    cause: failure.cause,
  });
}

function hint({ status, retryable }: ProviderFailure): string {
  if (retryable === false) return 'Retrying will not help; fix the request.';
  if (status === undefined) return 'Check the base URL and the network; it is retryable.';
  if (status === 401 || status === 403) return 'Check the API key and its permissions.';
  if (status === 404) return 'Check the model id and the base URL.';
  if (status === 429) return 'Rate limited: lower the concurrency, or raise maxRetries.';
  if (status >= 500) return 'The provider had a server error; it is retryable.';
  return 'The provider rejected the request; fix the request (see the cause), retrying will not help.';
}
