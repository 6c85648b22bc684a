import { AnthropicAdapter } from '../anthropic/compile-anthropic.js';
import { GeminiAdapter } from '../gemini/compile-gemini.js';
import { OpenAIAdapter } from '../openai/compile-openai.js';
import { OpenAIResponsesAdapter } from '../openai-responses/compile-openai-responses.js';
import type { AdapterRegistry } from './adapter-registry.js';

/** The source id the built-in targets are registered under. */
export const BUILTIN_SOURCE_ID = 'builtin';

/** Registers a fresh instance of every built-in target under {@link BUILTIN_SOURCE_ID}, in a fixed order. */
export function registerBuiltinAdapters(registry: AdapterRegistry): AdapterRegistry {
  return registry
    .register('openai', new OpenAIAdapter(), BUILTIN_SOURCE_ID)
    .register('anthropic', new AnthropicAdapter(), BUILTIN_SOURCE_ID)
    .register('gemini', new GeminiAdapter(), BUILTIN_SOURCE_ID)
    .register('openai-responses', new OpenAIResponsesAdapter(), BUILTIN_SOURCE_ID);
}
