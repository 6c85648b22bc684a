import type { ModelAdapter, ModelDelta, ModelRequest, ModelResponse } from '@flotilla/runtime';
import OpenAI from 'openai';
import { generateWithRetries } from '../shared/generate-with-retries.js';
import { adapterLimits } from '../shared/limit-options.js';
import { MissingApiKeyError } from '../shared/missing-api-key-error.js';
import { type WithModelAlias, withModelName } from '../shared/model-name-option.js';
import { resolveRetryPolicy } from '../shared/retry-policy.js';
import { accumulateChatStream } from './accumulate-chat-stream.js';
import { accumulateResponsesStream } from './accumulate-responses-stream.js';
import { buildChatRequest } from './build-chat-request.js';
import { buildResponsesRequest } from './build-responses-request.js';
import { countOpenAITokens } from './count-openai-tokens.js';
import type { OpenAIModelAdapterOptions } from './openai-model-adapter-options.js';
import { parseChatCompletion } from './parse-chat-completion.js';
import { parseResponsesOutput } from './parse-responses-output.js';
import { toOpenAICallError } from './to-openai-call-error.js';

/**
 * A {@link ModelAdapter} on the official `openai` SDK: Chat Completions by default, the
 * Responses API with `api: 'responses'`; any OpenAI-compatible server through `baseURL`.
 * IR is compiled by the `@flotilla/ir` targets; answers come back as one IR assistant message
 * (Responses reasoning items kept in `_openai_reasoning`) with usage and finish reason. With
 * `onDelta` the call streams (`stream_options.include_usage` on chat).
 *
 * Failures reject with `ModelCallError` (provider, status, `retryable`, cause). 429, 408, 409,
 * 5xx and network errors are retried up to `maxRetries` times, honouring `retry-after`
 * (capped at `maxRetryDelayMs`); other 4xx fail at once; a stream is not retried once a delta
 * was reported. The SDK's own retries are off. Aborting `request.signal` rejects with the
 * signal's reason.
 *
 * @throws MissingApiKeyError at creation when no API key is given or in `OPENAI_API_KEY`
 *   (OpenAI-compatible servers without auth take any string).
 * @throws RangeError at creation when a retry option is negative.
 * @throws InvalidAdapterOptionsError at creation when neither `model` nor its alias `modelId` names the model.
 * @throws InvalidModelLimitsError at creation when `limits` are invalid.
 */
export function createOpenAIAdapter(given: WithModelAlias<OpenAIModelAdapterOptions>): ModelAdapter {
  const options = withModelName<OpenAIModelAdapterOptions>(given, 'openai');
  const policy = resolveRetryPolicy(options);
  const client = options.client ?? createClient(options);
  const provider = options.provider ?? 'openai';
  const modelId = options.id ?? options.model;
  const api = options.api ?? 'chat';
  const run = api === 'responses' ? generateWithResponses : generateWithChat;
  const limits = adapterLimits(options, provider, modelId);
  return {
    id: modelId,
    provider,
    ...(limits && { limits }),
    generate(request: ModelRequest): Promise<ModelResponse> {
      const site = {
        provider,
        modelId,
        endpoint: api === 'responses' ? ('responses' as const) : ('chat.completions' as const),
        signal: request.signal,
      };
      return generateWithRetries(request, policy, {
        call: (onDelta) => run({ client, options, request, onDelta, site }),
        toError: (error, attempts) => toOpenAICallError(error, site, attempts),
      });
    },
    // By the model the request names (`options.model`), not the adapter's id alias.
    countTokens: (messages, tools) => countOpenAITokens(options.model, messages, tools),
  };
}

function createClient(options: OpenAIModelAdapterOptions): OpenAI {
  const apiKey = options.apiKey ?? process.env.OPENAI_API_KEY;
  if (!apiKey) throw new MissingApiKeyError('openai', ['OPENAI_API_KEY']);
  return new OpenAI({
    apiKey,
    ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
    ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
    maxRetries: 0,
  });
}

interface Attempt {
  client: OpenAI;
  options: OpenAIModelAdapterOptions;
  request: ModelRequest;
  onDelta: ((delta: ModelDelta) => void) | undefined;
  site: { provider: string; modelId: string };
}

/** Our retries are the only ones: the SDK's are off for every request, also on a given client. */
function requestOptions(request: ModelRequest): OpenAI.RequestOptions {
  return { maxRetries: 0, ...(request.signal ? { signal: request.signal } : {}) };
}

async function generateWithChat({ client, options, request, onDelta }: Attempt): Promise<ModelResponse> {
  const body = buildChatRequest(request, options);
  if (!onDelta)
    return parseChatCompletion(await client.chat.completions.create(body, requestOptions(request)));
  const stream = await client.chat.completions.create(
    { ...body, stream: true, stream_options: { include_usage: true } },
    requestOptions(request),
  );
  return accumulateChatStream(stream, onDelta);
}

async function generateWithResponses({
  client,
  options,
  request,
  onDelta,
  site,
}: Attempt): Promise<ModelResponse> {
  const body = buildResponsesRequest(request, options);
  if (!onDelta)
    return parseResponsesOutput(await client.responses.create(body, requestOptions(request)), site);
  const stream = await client.responses.create({ ...body, stream: true }, requestOptions(request));
  return accumulateResponsesStream(stream, onDelta, site);
}
