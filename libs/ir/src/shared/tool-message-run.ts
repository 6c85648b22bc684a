import type { Message } from '../types/message.js';

/**
 * The end (exclusive) of the run of consecutive `tool` messages that starts at `start`.
 * Targets that must move tool-result media into a following user message emit the whole run
 * first: OpenAI requires every tool message to follow its assistant message directly, and
 * Gemini requires all function responses of a turn in one content.
 */
export function toolMessageRunEnd(messages: Message[], start: number): number {
  let end = start;
  while (end < messages.length && messages[end]!.role === 'tool') end++;
  return end;
}
