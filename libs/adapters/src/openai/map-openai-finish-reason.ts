import type { FinishReason } from '@flotilla/ir';

/** Chat Completions `finish_reason` → IR finish reason; the provider's word stays in `raw`. */
export function mapOpenAIFinishReason(raw: string | null | undefined): FinishReason {
  const unified = UNIFIED[raw ?? ''] ?? 'unknown';
  return raw ? { unified, raw } : { unified };
}

const UNIFIED: Record<string, FinishReason['unified']> = {
  stop: 'stop',
  length: 'length',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  content_filter: 'content_filter',
};
