import type { TokenUsage } from '@flotilla/ir';
import type { GenerateContentResponseUsageMetadata } from '@google/genai';

/**
 * Gemini `usageMetadata` → IR usage. Thinking tokens are billed as output, so they count as
 * completion tokens and are also reported as `details.reasoningTokens`; cached prompt tokens
 * are `details.cacheReadTokens`.
 */
export function convertGeminiUsage(usage: GenerateContentResponseUsageMetadata | undefined): TokenUsage {
  const promptTokens = usage?.promptTokenCount ?? 0;
  const thoughts = usage?.thoughtsTokenCount ?? 0;
  const completionTokens = (usage?.candidatesTokenCount ?? 0) + thoughts;
  const result: TokenUsage = {
    promptTokens,
    completionTokens,
    totalTokens: usage?.totalTokenCount ?? promptTokens + completionTokens,
  };
  const details: Record<string, number> = {};
  if (thoughts > 0) details.reasoningTokens = thoughts;
  if ((usage?.cachedContentTokenCount ?? 0) > 0)
    details.cacheReadTokens = usage?.cachedContentTokenCount ?? 0;
  if ((usage?.toolUsePromptTokenCount ?? 0) > 0)
    details.toolUsePromptTokens = usage?.toolUsePromptTokenCount ?? 0;
  return Object.keys(details).length > 0 ? { ...result, details } : result;
}
