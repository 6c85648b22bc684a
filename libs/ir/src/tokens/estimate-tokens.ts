import type { Message } from '../types/message.js';
import type { ToolDefinition } from '../types/tool-definition.js';
import { countMessageTokens } from './count-message-tokens.js';

/** Characters per token of the estimate: about right for English prose and JSON on every major tokenizer. */
export const ESTIMATED_CHARS_PER_TOKEN = 4;

/**
 * An estimate of the prompt tokens of a request, for models without a tokenizer at hand (the
 * Gemini and Anthropic adapters, the mock model): one token per
 * {@link ESTIMATED_CHARS_PER_TOKEN} characters of text (rounded up), plus the per-message and
 * per-attachment weights of {@link countMessageTokens} — an attachment counts a fixed
 * `ATTACHMENT_TOKENS`, never its bytes. Deterministic, so a replay decides the same.
 */
export function estimateTokens(messages: readonly Message[], tools?: readonly ToolDefinition[]): number {
  return countMessageTokens(messages, tools, estimateTextTokens);
}

/** The estimate for one text: `ceil(length / 4)`. */
export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / ESTIMATED_CHARS_PER_TOKEN);
}
