import Anthropic from '@anthropic-ai/sdk';
import { estimateTokens } from '@flotilla/ir';
import type { ModelAdapter, ModelDelta, ModelRequest, ModelResponse } from '@flotilla/runtime';
import { generateWithRetries } from '../shared/generate-with-retries.js';
import { adapterLimits } from '../shared/limit-options.js';
import { MissingApiKeyError } from '../shared/missing-api-key-error.js';
import { type WithModelAlias, withModelName } from '../shared/model-name-option.js';
import { resolveRetryPolicy } from '../shared/retry-policy.js';
import { accumulateAnthropicStream } from './accumulate-anthropic-stream.js';
import type { AnthropicModelAdapterOptions } from './anthropic-model-adapter-options.js';
import { buildAnthropicRequest } from './build-anthropic-request.js';
import { parseAnthropicMessage } from './parse-anthropic-message.js';
import { toAnthropicCallError } from './to-anthropic-call-error.js';

/**
 * A {@link ModelAdapter} on the official `@anthropic-ai/sdk` (Messages API). IR is compiled by
 * the `@flotilla/ir` `anthropic` target; answers come back as one IR assistant message whose
 * signed thinking is kept for the next turn, with usage (cache reads and writes included) and
 * finish reason. With `onDelta` the call streams.
 *
 * Failures reject with `ModelCallError` (provider, status, `retryable`, cause). 429, 408, 409,
 * 5xx (529 overloaded included) and network errors are retried up to `maxRetries` times,
 * honouring `retry-after` (capped at `maxRetryDelayMs`); other 4xx fail at once; a stream is
 * not retried once a delta was reported. The SDK's own retries are off. Aborting
 * `request.signal` rejects with the signal's reason.
 *
 * @throws MissingApiKeyError at creation when no API key is given or in `ANTHROPIC_API_KEY`.
 * @throws RangeError at creation when a retry option is negative.
 * @throws InvalidAdapterOptionsError at creation when neither `model` nor its alias `modelId` names the model.
 * @throws InvalidModelLimitsError at creation when `limits` are invalid.
 */
export function createAnthropicAdapter(given: WithModelAlias<AnthropicModelAdapterOptions>): ModelAdapter {
  const options = withModelName<AnthropicModelAdapterOptions>(given, 'anthropic');
  const policy = resolveRetryPolicy(options);
  const client = options.client ?? createClient(options);
  const modelId = options.id ?? options.model;
  const limits = adapterLimits(options, 'anthropic', modelId);
  return {
    id: modelId,
    provider: 'anthropic',
    ...(limits && { limits }),
    generate(request: ModelRequest): Promise<ModelResponse> {
      const site = { modelId, signal: request.signal };
      return generateWithRetries(request, policy, {
        call: (onDelta) => generateOnce(client, options, request, onDelta),
        toError: (error, attempts) => toAnthropicCallError(error, site, attempts),
      });
    },
    // No tokenizer ships for this provider: the documented estimate (4 characters a token,
    // attachments at a fixed weight); the reported promptTokens correct it after each turn.
    countTokens: (messages, tools) => estimateTokens(messages, tools),
  };
}

function createClient(options: AnthropicModelAdapterOptions): Anthropic {
  const apiKey = options.apiKey ?? process.env.ANTHROPIC_API_KEY;
  if (!apiKey) throw new MissingApiKeyError('anthropic', ['ANTHROPIC_API_KEY']);
  const baseURL = options.baseURL ?? process.env.ANTHROPIC_BASE_URL;
  return new Anthropic({
    apiKey,
    ...(baseURL ? { baseURL } : {}),
    ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
    maxRetries: 0,
  });
}

/** Our retries are the only ones: the SDK's are off for every request, also on a given client. */
function requestOptions(request: ModelRequest): Anthropic.RequestOptions {
  return { maxRetries: 0, ...(request.signal ? { signal: request.signal } : {}) };
}

async function generateOnce(
  client: Anthropic,
  options: AnthropicModelAdapterOptions,
  request: ModelRequest,
  onDelta: ((delta: ModelDelta) => void) | undefined,
): Promise<ModelResponse> {
  const { body, outputTool } = buildAnthropicRequest(request, options);
  const parse = { outputTool, onWarning: options.onWarning };
  if (!onDelta)
    return parseAnthropicMessage(await client.messages.create(body, requestOptions(request)), parse);
  const stream = await client.messages.create({ ...body, stream: true }, requestOptions(request));
  return accumulateAnthropicStream(stream, onDelta, parse);
}
