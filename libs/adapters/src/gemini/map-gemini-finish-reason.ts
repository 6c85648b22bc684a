import type { FinishReason } from '@flotilla/ir';

/**
 * Gemini `finishReason` → IR finish reason. Gemini says `STOP` even when it called functions,
 * so a response with function calls is `tool_calls` (raw `STOP` kept), or the agent loop would
 * stop before running them.
 */
export function mapGeminiFinishReason(raw: string | undefined, hasFunctionCalls: boolean): FinishReason {
  if (hasFunctionCalls && (raw === undefined || raw === 'STOP'))
    return { unified: 'tool_calls', raw: raw ?? 'STOP' };
  if (raw === undefined) return { unified: 'unknown' };
  return { unified: UNIFIED[raw] ?? 'unknown', raw };
}

const UNIFIED: Record<string, FinishReason['unified']> = {
  STOP: 'stop',
  MAX_TOKENS: 'length',
  SAFETY: 'content_filter',
  RECITATION: 'content_filter',
  BLOCKLIST: 'content_filter',
  PROHIBITED_CONTENT: 'content_filter',
  SPII: 'content_filter',
  IMAGE_SAFETY: 'content_filter',
  IMAGE_PROHIBITED_CONTENT: 'content_filter',
  MALFORMED_FUNCTION_CALL: 'error',
  UNEXPECTED_TOOL_CALL: 'error',
  TOO_MANY_TOOL_CALLS: 'error',
};
