import { APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { abortReason } from '../shared/abort-reason.js';
import { parseRetryAfter } from '../shared/parse-retry-after.js';
import { providerFailureError } from '../shared/provider-failure-error.js';

/** Where an Anthropic error happened, for the message. */
export interface AnthropicCallSite {
  modelId: string;
  signal: AbortSignal | undefined;
}

/** The HTTP status Anthropic documents for each error type, for `error` events inside a stream. */
const STATUS_OF_TYPE: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
};

/**
 * Maps what `@anthropic-ai/sdk` threw: a cancellation becomes the signal's reason; an HTTP
 * error a `ModelCallError` with its status, `retry-after` and the API's own message (and
 * `x-should-retry`, when Anthropic sends it, decides `retryable`); an `error` event inside a
 * stream the status of its error type (`overloaded_error` → 529); a connection failure a
 * retryable network error. Anything else (a bug in our parsing, say) is returned unchanged.
 */
export function toAnthropicCallError(error: unknown, site: AnthropicCallSite, attempts: number): unknown {
  if (site.signal?.aborted || error instanceof APIUserAbortError) return abortReason(site.signal);
  if (!(error instanceof APIError)) return error;
  const status = error.status ?? (error.type ? STATUS_OF_TYPE[error.type] : undefined);
  const shouldRetry = error.headers?.get('x-should-retry');
  return providerFailureError({
    provider: 'anthropic',
    modelId: site.modelId,
    endpoint: 'messages',
    status,
    detail: status === undefined ? String(error.cause ?? error.message) : (error.apiMessage ?? error.message),
    retryAfterSeconds: parseRetryAfter(error.headers),
    attempts,
    cause: error,
    ...(shouldRetry === 'true' || shouldRetry === 'false' ? { retryable: shouldRetry === 'true' } : {}),
  });
}
