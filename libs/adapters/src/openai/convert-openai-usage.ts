import { emptyUsage, type TokenUsage } from '@flotilla/ir';
import type { CompletionUsage } from 'openai/resources/completions';
import type { ResponseUsage } from 'openai/resources/responses/responses';

/** Chat Completions usage → IR usage; reasoning and cache counts go to `details` when non-zero. */
export function convertChatUsage(usage: CompletionUsage | null | undefined): TokenUsage {
  if (!usage) return emptyUsage();
  return withDetails(
    {
      promptTokens: usage.prompt_tokens,
      completionTokens: usage.completion_tokens,
      totalTokens: usage.total_tokens ?? usage.prompt_tokens + usage.completion_tokens,
    },
    {
      reasoningTokens: usage.completion_tokens_details?.reasoning_tokens,
      cacheReadTokens: usage.prompt_tokens_details?.cached_tokens,
      cacheWriteTokens: usage.prompt_tokens_details?.cache_write_tokens,
    },
  );
}

/** Responses API usage → IR usage, with the same `details` names as Chat Completions. */
export function convertResponsesUsage(usage: ResponseUsage | null | undefined): TokenUsage {
  if (!usage) return emptyUsage();
  return withDetails(
    {
      promptTokens: usage.input_tokens,
      completionTokens: usage.output_tokens,
      totalTokens: usage.total_tokens ?? usage.input_tokens + usage.output_tokens,
    },
    {
      reasoningTokens: usage.output_tokens_details?.reasoning_tokens,
      cacheReadTokens: usage.input_tokens_details?.cached_tokens,
      cacheWriteTokens: usage.input_tokens_details?.cache_write_tokens,
    },
  );
}

function withDetails(usage: TokenUsage, details: Record<string, number | null | undefined>): TokenUsage {
  const kept = Object.entries(details).filter(
    (entry): entry is [string, number] =>
      typeof entry[1] === 'number' && Number.isFinite(entry[1]) && entry[1] > 0,
  );
  return kept.length > 0 ? { ...usage, details: Object.fromEntries(kept) } : usage;
}
