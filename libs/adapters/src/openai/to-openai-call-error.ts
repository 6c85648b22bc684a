import { APIError, APIUserAbortError } from 'openai';
import { abortReason } from '../shared/abort-reason.js';
import { parseRetryAfter } from '../shared/parse-retry-after.js';
import { providerFailureError } from '../shared/provider-failure-error.js';

/** Where an OpenAI error happened, for the message. */
export interface OpenAICallSite {
  provider: string;
  modelId: string;
  endpoint: 'chat.completions' | 'responses';
  signal: AbortSignal | undefined;
}

/**
 * Maps what the OpenAI SDK threw: a cancellation becomes the signal's reason, an API or
 * connection error a `ModelCallError` (status, `retry-after`, cause); anything else (a bug in
 * our parsing, say) is returned unchanged.
 */
export function toOpenAICallError(error: unknown, site: OpenAICallSite, attempts: number): unknown {
  if (site.signal?.aborted || error instanceof APIUserAbortError) return abortReason(site.signal);
  if (!(error instanceof APIError)) return error;
  return providerFailureError({
    provider: site.provider,
    modelId: site.modelId,
    endpoint: site.endpoint,
    status: error.status,
    detail: error.message,
    retryAfterSeconds: parseRetryAfter(error.headers),
    attempts,
    cause: error,
  });
}
