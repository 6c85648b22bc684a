import type { Message } from '../types/message.js';
import { type CompactTarget, readCompactTargets } from './compact-targets.js';

/** The text a cleared tool result is replaced with. */
export const TOOL_RESULT_CLEARED = '[Old tool result content cleared]';

/**
 * A sentence to add to the system prompt when tool results get cleared, so the model reads the
 * placeholder as "the result existed and was removed", not as a failed tool call.
 */
export const TOOL_RESULT_CLEARED_INSTRUCTION =
  `Some older tool results in this conversation were replaced with "${TOOL_RESULT_CLEARED}" ` +
  'to save space. The tool calls did run; call the tool again if you need its output.';

/** Options of {@link compact}. */
export interface CompactOptions {
  /** What to clear; an empty list changes nothing. Checked: an unknown target throws. */
  clear: readonly CompactTarget[];
}

/**
 * Shrinks a history without a model: clears old tool results and/or reasoning.
 *
 * Never touched, on purpose: provider replay data that a provider REQUIRES back or that the
 * IR cannot rebuild — Gemini thought signatures (`ToolCall.thoughtSignature`,
 * `_gemini_thought_signature`; Gemini 3 rejects a current-turn call without one) and OpenAI
 * Responses reasoning items (`_openai_reasoning`, opaque and encrypted). `'thinking'` means
 * the Anthropic-style `thinking` / `redacted_thinking` fields only. Tool call ids, tool names
 * and the assistant's call arguments are kept, so every call still has its result.
 *
 * Pure: the input and its messages are never mutated; changed messages are copies. Returns the
 * input array itself when nothing had to change, so callers can skip a write.
 * @throws {IRValidationError} when `clear` holds anything but the {@link CompactTarget}s, naming
 * the entry (`clear[1]`), so a misspelt target fails instead of silently clearing nothing.
 */
export function compact<M extends Message>(history: readonly M[], options: CompactOptions): M[] {
  const { clearThinking, keepToolResults: keepRecent } = readCompactTargets(options?.clear);
  const toolMessageCount = history.filter((message) => message.role === 'tool').length;
  let toolMessagesSeen = 0;
  let changed = false;
  const result = history.map((message) => {
    let next = message;
    if (message.role === 'tool') {
      toolMessagesSeen += 1;
      const isRecent = toolMessageCount - toolMessagesSeen < keepRecent;
      if (!isRecent) next = clearToolResult(message);
    } else if (clearThinking && message.role === 'assistant') {
      next = clearReasoning(message);
    }
    if (next !== message) changed = true;
    return next;
  });
  return changed ? result : (history as M[]);
}

function clearToolResult<M extends Message>(message: M): M {
  if (message.content === TOOL_RESULT_CLEARED && message.attachments === undefined) return message;
  const { attachments: _dropped, ...rest } = message;
  return { ...rest, content: TOOL_RESULT_CLEARED } as M;
}

function clearReasoning<M extends Message>(message: M): M {
  if (!('thinking' in message) && !('redacted_thinking' in message)) return message;
  // Delete rather than set to undefined: `undefined` keys vanish in JSON, and a stored
  // conversation must read back exactly as it was written.
  const { thinking: _thinking, redacted_thinking: _redacted, ...rest } = message;
  return rest as M;
}
