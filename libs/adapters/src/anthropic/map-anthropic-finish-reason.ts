import type { FinishReason } from '@flotilla/ir';

/**
 * Messages API `stop_reason` → IR finish reason; the provider's word stays in `raw`. A
 * `tool_use` stop whose only call was the structured-output tool is a `stop` (the answer is
 * there, there is no tool to run).
 */
export function mapAnthropicFinishReason(
  raw: string | null | undefined,
  hasToolCalls: boolean,
): FinishReason {
  if (!raw) return { unified: 'unknown' };
  if (raw === 'tool_use') return { unified: hasToolCalls ? 'tool_calls' : 'stop', raw };
  return { unified: UNIFIED[raw] ?? 'unknown', raw };
}

const UNIFIED: Record<string, FinishReason['unified']> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  refusal: 'content_filter',
};
