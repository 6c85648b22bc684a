import type { AnthropicPayload } from '../anthropic/compile-anthropic.js';
import type { GeminiPayload } from '../gemini/compile-gemini.js';
import type { OpenAIPayload } from '../openai/compile-openai.js';
import type { OpenAIResponsesPayload } from '../openai-responses/compile-openai-responses.js';

/**
 * The payload type of each built-in target name. `compile({ target: 'openai' })` and
 * `getAdapter('openai')` are typed from this map, also after the name was re-registered.
 */
export interface BuiltinPayloads {
  openai: OpenAIPayload;
  anthropic: AnthropicPayload;
  gemini: GeminiPayload;
  'openai-responses': OpenAIResponsesPayload;
}
