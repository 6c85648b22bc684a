import type { TokenUsage } from '@flotilla/ir';

/** The usage fields we read, from a `Message` or merged from a stream's events. */
export interface AnthropicUsageFields {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  output_tokens_details?: { thinking_tokens?: number | null } | null;
}

/**
 * Messages API usage → IR usage. Anthropic's `input_tokens` leaves out the tokens read from
 * and written to the cache, so `promptTokens` adds them back (as OpenAI counts cached prompt
 * tokens); they are also reported as `details.cacheReadTokens` / `cacheWriteTokens`, and
 * thinking tokens (part of `output_tokens`) as `details.reasoningTokens`.
 */
export function convertAnthropicUsage(usage: AnthropicUsageFields | undefined): TokenUsage {
  const cacheRead = usage?.cache_read_input_tokens ?? 0;
  const cacheWrite = usage?.cache_creation_input_tokens ?? 0;
  const promptTokens = (usage?.input_tokens ?? 0) + cacheRead + cacheWrite;
  const completionTokens = usage?.output_tokens ?? 0;
  const result: TokenUsage = { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens };
  const details: Record<string, number> = {};
  const thinking = usage?.output_tokens_details?.thinking_tokens ?? 0;
  if (thinking > 0) details.reasoningTokens = thinking;
  if (cacheRead > 0) details.cacheReadTokens = cacheRead;
  if (cacheWrite > 0) details.cacheWriteTokens = cacheWrite;
  return Object.keys(details).length > 0 ? { ...result, details } : result;
}
