/**
 * `@flotilla/adapters/openai` — OpenAI (and OpenAI-compatible) model adapter.
 *
 * `createOpenAIAdapter({ model })` gives a `ModelAdapter` for Chat Completions (default) or the
 * Responses API (`api: 'responses'`); `toOpenAIMessages` shows the exact messages it sends.
 */

export type { LimitOptions } from '../shared/limit-options.js';
export { MissingApiKeyError } from '../shared/missing-api-key-error.js';
export type { WithModelAlias } from '../shared/model-name-option.js';
export { InvalidAdapterOptionsError } from '../shared/model-name-option.js';
export type { RetryOptions } from '../shared/retry-policy.js';
export { createOpenAIAdapter } from './create-openai-adapter.js';
export type { OpenAIModelAdapterOptions } from './openai-model-adapter-options.js';
export { toOpenAIMessages } from './to-openai-messages.js';
