import { ApiError } from '@google/genai';
import { abortReason } from '../shared/abort-reason.js';
import { providerFailureError } from '../shared/provider-failure-error.js';

/** Where a Gemini error happened, for the message. */
export interface GeminiCallSite {
  modelId: string;
  endpoint: 'generateContent' | 'streamGenerateContent';
  signal: AbortSignal | undefined;
}

/**
 * Maps what `@google/genai` threw: a cancellation becomes the signal's reason, an `ApiError`
 * a `ModelCallError` (status, the `RetryInfo.retryDelay` Gemini puts in the error body, cause),
 * a failed `fetch` a retryable network `ModelCallError`; anything else is returned unchanged.
 */
export function toGeminiCallError(error: unknown, site: GeminiCallSite, attempts: number): unknown {
  if (site.signal?.aborted || (error instanceof Error && error.name === 'AbortError'))
    return abortReason(site.signal);
  const base = { provider: 'gemini', modelId: site.modelId, endpoint: site.endpoint, attempts, cause: error };
  if (error instanceof ApiError) {
    const body = parseErrorBody(error.message);
    return providerFailureError({
      ...base,
      status: error.status,
      detail: body?.error?.message ?? error.message,
      retryAfterSeconds: retryDelaySeconds(body),
    });
  }
  if (error instanceof TypeError && error.message === 'fetch failed') {
    return providerFailureError({
      ...base,
      status: undefined,
      detail: String(error.cause ?? error.message),
      retryAfterSeconds: undefined,
    });
  }
  return error;
}

/** The Google RPC error body the SDK puts, as JSON text, in `ApiError.message`. */
interface GoogleErrorBody {
  error?: { message?: string; details?: Array<{ '@type'?: string; retryDelay?: string }> };
}

function parseErrorBody(message: string): GoogleErrorBody | undefined {
  try {
    const body: unknown = JSON.parse(message);
    return typeof body === 'object' && body !== null ? (body as GoogleErrorBody) : undefined;
  } catch {
    return undefined;
  }
}

function retryDelaySeconds(body: GoogleErrorBody | undefined): number | undefined {
  const info = body?.error?.details?.find((detail) => detail['@type']?.endsWith('google.rpc.RetryInfo'));
  // A protobuf Duration in JSON: seconds with an `s` suffix, e.g. "30s" or "1.5s".
  const match = /^(\d+(?:\.\d+)?)s$/.exec(info?.retryDelay ?? '');
  return match ? Number(match[1]) : undefined;
}
