import { estimateTokens } from '@flotilla/ir';
import type { ModelAdapter, ModelDelta, ModelRequest, ModelResponse } from '@flotilla/runtime';
import { GoogleGenAI } from '@google/genai';
import { generateWithRetries } from '../shared/generate-with-retries.js';
import { adapterLimits } from '../shared/limit-options.js';
import { MissingApiKeyError } from '../shared/missing-api-key-error.js';
import { type WithModelAlias, withModelName } from '../shared/model-name-option.js';
import { resolveRetryPolicy } from '../shared/retry-policy.js';
import { buildGeminiRequest } from './build-gemini-request.js';
import type { GeminiModelAdapterOptions } from './gemini-model-adapter-options.js';
import { GeminiResponseAccumulator } from './gemini-response-accumulator.js';
import { toGeminiCallError } from './to-gemini-call-error.js';

/**
 * A {@link ModelAdapter} on `@google/genai` (provider `gemini`). IR is compiled by the
 * `@flotilla/ir` `gemini` target; answers come back as one IR assistant message whose tool
 * calls keep Gemini's `thoughtSignature` (and `_gemini_thought_signature` for a signed text
 * part), so the next turn sends them back. With `onDelta` the call streams through
 * `generateContentStream`. Missing function-call ids are generated.
 *
 * Failures reject with `ModelCallError` (status, `retryable`, cause). 429, 408, 409, 5xx and
 * network errors are retried up to `maxRetries` times, honouring Gemini's `RetryInfo` delay
 * (capped at `maxRetryDelayMs`); other 4xx fail at once; a stream is not retried once a delta
 * was reported. The SDK's own retries are off. Aborting `request.signal` rejects with the
 * signal's reason.
 *
 * @throws MissingApiKeyError at creation when no API key is given or in `GEMINI_API_KEY` / `GOOGLE_API_KEY`.
 * @throws RangeError at creation when a retry option is negative.
 * @throws InvalidAdapterOptionsError at creation when neither `model` nor its alias `modelId` names the model.
 * @throws InvalidModelLimitsError at creation when `limits` are invalid.
 */
export function createGeminiAdapter(given: WithModelAlias<GeminiModelAdapterOptions>): ModelAdapter {
  const options = withModelName<GeminiModelAdapterOptions>(given, 'gemini');
  const policy = resolveRetryPolicy(options);
  const client = options.client ?? createClient(options);
  const modelId = options.id ?? options.model;
  const limits = adapterLimits(options, 'gemini', modelId);
  return {
    id: modelId,
    provider: 'gemini',
    ...(limits && { limits }),
    generate(request: ModelRequest): Promise<ModelResponse> {
      const site = {
        modelId,
        endpoint: request.onDelta ? ('streamGenerateContent' as const) : ('generateContent' as const),
        signal: request.signal,
      };
      return generateWithRetries(request, policy, {
        call: (onDelta) => generateOnce(client, options, request, onDelta),
        toError: (error, attempts) => toGeminiCallError(error, site, attempts),
      });
    },
    // No tokenizer ships for this provider: the documented estimate (4 characters a token,
    // attachments at a fixed weight); the reported promptTokens correct it after each turn.
    countTokens: (messages, tools) => estimateTokens(messages, tools),
  };
}

function createClient(options: GeminiModelAdapterOptions): GoogleGenAI {
  const apiKey = options.apiKey ?? process.env.GEMINI_API_KEY ?? process.env.GOOGLE_API_KEY;
  if (!apiKey) throw new MissingApiKeyError('gemini', ['GEMINI_API_KEY', 'GOOGLE_API_KEY']);
  const httpOptions = {
    ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
    ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
  };
  return new GoogleGenAI({ apiKey, httpOptions });
}

async function generateOnce(
  client: GoogleGenAI,
  options: GeminiModelAdapterOptions,
  request: ModelRequest,
  onDelta: ((delta: ModelDelta) => void) | undefined,
): Promise<ModelResponse> {
  const parameters = buildGeminiRequest(request, options);
  const accumulator = new GeminiResponseAccumulator(onDelta);
  if (!onDelta) {
    accumulator.add(await client.models.generateContent(parameters));
    return accumulator.result();
  }
  // The abort signal travels in `config.abortSignal` to fetch, so it also ends a hung body read.
  for await (const chunk of await client.models.generateContentStream(parameters)) accumulator.add(chunk);
  return accumulator.result();
}
