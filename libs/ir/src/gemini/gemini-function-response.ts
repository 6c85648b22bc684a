import { isJsonObject, tryParseJson } from '../shared/parse-tool-arguments.js';
import type { Message } from '../types/message.js';
import type { GeminiPart } from './gemini-wire.js';

/**
 * The `functionResponse` part for a tool message. `name` is the name of the call it answers
 * (looked up by id in `callNames`, because tool messages from OpenAI carry no name), else the
 * message's `name`, else its id. `response` must be an object: a JSON object result is sent as
 * is, anything else (text, a number, an array) as `{ result }`, or `{ error }` for a failed
 * tool (`_tool_error`). `text` replaces the message content (e.g. a note that media follows).
 */
export function toFunctionResponsePart(
  message: Message,
  callNames: Map<string, string>,
  text: string,
): GeminiPart {
  const id = message.tool_call_id ?? '';
  const name = callNames.get(id) ?? message.name ?? (id || 'unknown');
  const parsed = tryParseJson(text);
  const value = parsed === undefined ? text : parsed;
  let response: Record<string, unknown>;
  if (message._tool_error) response = { error: value };
  else if (isJsonObject(value)) response = value;
  else response = { result: value };
  return { functionResponse: { ...(id ? { id } : {}), name, response } };
}

/** Tool-call id → function name, over every assistant message. */
export function collectCallNames(messages: Message[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const message of messages) {
    for (const call of message.tool_calls ?? []) names.set(call.id, call.function.name);
  }
  return names;
}
