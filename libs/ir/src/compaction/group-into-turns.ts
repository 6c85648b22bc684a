import type { Message } from '../types/message.js';

/**
 * One indivisible unit of a conversation for compaction: an assistant message with tool calls
 * together with the tool messages that directly follow it, or any other single message.
 */
export interface Turn {
  /** Index of the turn's first message in the history it was cut from. */
  start: number;
  messages: Message[];
}

/**
 * Groups a history into {@link Turn}s. Splitting only between turns guarantees that a tool
 * call is never separated from its results (a provider rejects either half on its own).
 * Pure: the messages are shared by reference, the input is not changed.
 */
export function groupIntoTurns(history: readonly Message[]): Turn[] {
  const turns: Turn[] = [];
  let index = 0;
  while (index < history.length) {
    const start = index;
    const first = history[index] as Message;
    index += 1;
    if (first.role === 'assistant' && (first.tool_calls?.length ?? 0) > 0) {
      while (index < history.length && history[index]?.role === 'tool') index += 1;
    }
    turns.push({ start, messages: history.slice(start, index) });
  }
  return turns;
}
