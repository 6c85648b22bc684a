import type { Message } from '../types/message.js';
import type { WarningSink } from './warning-sink.js';

/** Options of targets that can keep Anthropic-style thinking as plain text (OpenAI, Gemini). */
export interface ThinkingAsTextOptions {
  /**
   * Put an assistant message's `thinking` in front of its text as `<thinking>…</thinking>`
   * instead of dropping it; useful when moving a Claude conversation to another provider.
   * `redacted_thinking` is never turned into text: it is dropped with one
   * `redacted-thinking-dropped` warning per compile (with or without this option).
   * @default false
   */
  preserveThinkingAsText?: boolean;
}

/**
 * The text a target without Anthropic thinking sends for `message`: its `content`, prefixed
 * with its thinking when `preserveThinkingAsText` is on. Without the option thinking is
 * stripped by design (provider reasoning is only valid on its own provider), so nothing is
 * reported. `redacted_thinking` is always dropped (see {@link reportRedactedThinking}).
 */
export function textWithThinking(
  message: Message,
  index: number,
  options: ThinkingAsTextOptions,
  sink: WarningSink,
): string {
  reportRedactedThinking(message, index, sink);
  if (!options.preserveThinkingAsText || message.role !== 'assistant') return message.content;
  const thinking = message.thinking?.thinking;
  if (!thinking) return message.content;
  const block = `<thinking>\n${thinking}\n</thinking>`;
  return message.content === '' ? block : `${block}\n\n${message.content}`;
}

/**
 * Reports `redacted-thinking-dropped` once per compile when `message` carries
 * `redacted_thinking`: it is encrypted, so no target but Anthropic can carry it, not even as text.
 */
export function reportRedactedThinking(message: Message, index: number, sink: WarningSink): void {
  if (!message.redacted_thinking) return;
  sink.warnOnce(
    'redacted-thinking-dropped',
    'redacted_thinking is encrypted Anthropic reasoning and cannot be sent, not even as text; dropped',
    index,
  );
}
