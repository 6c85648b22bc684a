/**
 * `@flotilla/adapters/anthropic` — Anthropic (Claude) model adapter on `@anthropic-ai/sdk`.
 *
 * `createAnthropicAdapter({ model })` gives a `ModelAdapter` for the Messages API;
 * `toAnthropicMessages` shows the exact messages it sends.
 */

export type { LimitOptions } from '../shared/limit-options.js';
export { MissingApiKeyError } from '../shared/missing-api-key-error.js';
export type { WithModelAlias } from '../shared/model-name-option.js';
export { InvalidAdapterOptionsError } from '../shared/model-name-option.js';
export type { RetryOptions } from '../shared/retry-policy.js';
export type { AnthropicModelAdapterOptions } from './anthropic-model-adapter-options.js';
export { createAnthropicAdapter } from './create-anthropic-adapter.js';
export { toAnthropicMessages } from './to-anthropic-messages.js';
