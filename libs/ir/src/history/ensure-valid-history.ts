import type { HistoryMessage, Message } from '../types/message.js';

/** Content of the tool message inserted for a tool call that has no result. */
export const MISSING_TOOL_RESULT = '[No tool result available]';
/** Content of the user message inserted where a conversation must start with a user turn. */
export const CONVERSATION_CONTINUES = '[Conversation continues]';

/**
 * Makes a history acceptable to every provider, in three passes:
 *
 * 1. drops tool results whose `tool_call_id` no EARLIER assistant message declared (tool
 *    messages without an id are kept); if that empties the history, returns a single
 *    `[Conversation continues]` user message;
 * 2. gives every declared tool call without a result a `[No tool result available]` tool
 *    message (with `name` = the call's function name), inserted right after its assistant
 *    message; results are looked for up to the next user or assistant message;
 * 3. inserts a `[Conversation continues]` user message before the first non-system message when
 *    that message is not a user message.
 *
 * Pure (returns a new array, shares the message objects, never mutates) and idempotent. Every
 * input adapter runs it last; IR built by hand or loaded from storage is not sanitised unless
 * you call it. Do not run it while tool calls are still pending: it would answer them with
 * placeholders.
 *
 * It fixes nothing else: consecutive same-role messages, empty content and mid-history system
 * messages pass through, and a late result (after a user message) stays where it is, so the
 * call gets a placeholder AND keeps the late result.
 */
export function ensureValidHistory<T extends Message>(history: readonly T[]): Array<T | HistoryMessage> {
  const withoutOrphans = dropOrphanToolResults(history);
  if (history.length > 0 && withoutOrphans.length === 0) return [continuesPlaceholder()];
  return ensureUserFirst(addMissingToolResults(withoutOrphans));
}

function dropOrphanToolResults<T extends Message>(history: readonly T[]): T[] {
  const declared = new Set<string>();
  const kept: T[] = [];
  for (const message of history) {
    if (message.role === 'tool' && message.tool_call_id && !declared.has(message.tool_call_id)) continue;
    if (message.role === 'assistant') for (const call of message.tool_calls ?? []) declared.add(call.id);
    kept.push(message);
  }
  return kept;
}

function addMissingToolResults<T extends Message>(history: readonly T[]): Array<T | HistoryMessage> {
  const result: Array<T | HistoryMessage> = [];
  history.forEach((message, index) => {
    result.push(message);
    if (message.role !== 'assistant' || !message.tool_calls?.length) return;
    const answered = answeredIds(history, index + 1);
    for (const call of message.tool_calls) {
      if (answered.has(call.id)) continue;
      answered.add(call.id); // one placeholder per id, even if the id is declared twice
      result.push({
        role: 'tool',
        tool_call_id: call.id,
        content: MISSING_TOOL_RESULT,
        name: call.function.name,
      });
    }
  });
  return result;
}

/** Ids of the tool results that follow position `start`, up to the next user or assistant turn. */
function answeredIds(history: readonly Message[], start: number): Set<string> {
  const ids = new Set<string>();
  for (let index = start; index < history.length; index++) {
    const message = history[index]!;
    if (message.role === 'user' || message.role === 'assistant') break;
    if (message.role === 'tool' && message.tool_call_id !== undefined) ids.add(message.tool_call_id);
  }
  return ids;
}

function ensureUserFirst<T extends Message>(history: T[]): T[] | Array<T | HistoryMessage> {
  const first = history.findIndex((message) => message.role !== 'system');
  if (first === -1 || history[first]?.role === 'user') return history;
  return [...history.slice(0, first), continuesPlaceholder(), ...history.slice(first)];
}

function continuesPlaceholder(): HistoryMessage {
  return { role: 'user', content: CONVERSATION_CONTINUES };
}
