import type { Message } from '../types/message.js';
import type { WarningSink } from './warning-sink.js';

/** Options of targets that can keep Anthropic-style thinking as plain text (OpenAI, Gemini). */
export interface ThinkingAsTextOptions {
  /**
   * Put an assistant message's `thinking` in front of its text as `<thinking>…</thinking>`
   * instead of dropping it; useful when moving a Claude conversation to another provider.
   * `redacted_thinking` is never turned into text: it is dropped with one
   * `redacted-thinking-dropped` warning per compile.
   * @default false
   */
  preserveThinkingAsText?: boolean;
}

/**
 * The text a target sends for `message`: its `content`, prefixed with its thinking when
 * `preserveThinkingAsText` is on. Without the option thinking is stripped by design (provider
 * reasoning is only valid on its own provider), so nothing is reported.
 */
export function textWithThinking(
  message: Message,
  index: number,
  options: ThinkingAsTextOptions,
  sink: WarningSink,
): string {
  if (!options.preserveThinkingAsText || message.role !== 'assistant') return message.content;
  if (message.redacted_thinking) {
    sink.warnOnce(
      'redacted-thinking-dropped',
      'redacted_thinking is encrypted and cannot be preserved as text; dropped',
      index,
    );
  }
  const thinking = message.thinking?.thinking;
  if (!thinking) return message.content;
  const block = `<thinking>\n${thinking}\n</thinking>`;
  return message.content === '' ? block : `${block}\n\n${message.content}`;
}
