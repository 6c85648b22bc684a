import type { Message } from '../types/message.js';
import type { ToolDefinition } from '../types/tool-definition.js';

/**
 * Tokens an attachment counts for, whatever its size: its bytes are not counted, because
 * providers bill media by resolution or pages, not by the length of the base64 text (an image
 * costs roughly 85 to 1,500 tokens on the major providers; this errs on the high side).
 */
export const ATTACHMENT_TOKENS = 1024;

/** Tokens each message costs on top of its text (role and framing; OpenAI's chat format uses 3–4). */
export const MESSAGE_OVERHEAD_TOKENS = 4;

/** Tokens that prime the reply (OpenAI's chat format adds 3 to every request). */
export const REPLY_PRIMING_TOKENS = 3;

/** Counts the tokens of a piece of text (a tokenizer, or an estimate). */
export type TextTokenCounter = (text: string) => number;

/**
 * The tokens a request with `messages` and `tools` costs, counting text with `countText`:
 * each message's text, tool calls (name and arguments), tool name and thinking, plus
 * {@link MESSAGE_OVERHEAD_TOKENS} per message, {@link ATTACHMENT_TOKENS} per attachment, each
 * tool definition as its JSON text, and {@link REPLY_PRIMING_TOKENS}. Provider passthrough
 * fields (signatures, encrypted reasoning) are not counted. Pure.
 */
export function countMessageTokens(
  messages: readonly Message[],
  tools: readonly ToolDefinition[] | undefined,
  countText: TextTokenCounter,
): number {
  let total = REPLY_PRIMING_TOKENS;
  for (const message of messages) {
    total += MESSAGE_OVERHEAD_TOKENS + countText(messageText(message));
    total += (message.attachments?.length ?? 0) * ATTACHMENT_TOKENS;
  }
  for (const tool of tools ?? []) total += countText(JSON.stringify(tool));
  return total;
}

function messageText(message: Message): string {
  const parts = [message.content];
  if (message.name) parts.push(message.name);
  for (const call of message.tool_calls ?? []) parts.push(call.function.name, call.function.arguments);
  if (message.thinking?.thinking) parts.push(message.thinking.thinking);
  return parts.join('\n');
}
