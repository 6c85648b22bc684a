/**
 * `@flotilla/adapters/gemini` — Gemini model adapter on `@google/genai`.
 *
 * `createGeminiAdapter({ model })` gives a `ModelAdapter`; `toGeminiMessages` shows the exact
 * contents it sends.
 */

export type { LimitOptions } from '../shared/limit-options.js';
export { MissingApiKeyError } from '../shared/missing-api-key-error.js';
export type { WithModelAlias } from '../shared/model-name-option.js';
export { InvalidAdapterOptionsError } from '../shared/model-name-option.js';
export type { RetryOptions } from '../shared/retry-policy.js';
export { createGeminiAdapter } from './create-gemini-adapter.js';
export type { GeminiModelAdapterOptions } from './gemini-model-adapter-options.js';
export { toGeminiMessages } from './to-gemini-messages.js';
