import { toParsedMessages } from '../input/to-parsed-messages.js';
import type { Message, ParsedMessages, ToolCall } from '../types/message.js';
import {
  expectArray,
  expectOneOf,
  expectRecord,
  expectString,
  type InputRecord,
} from '../validation/expect-value.js';
import { inputPath } from '../validation/input-path.js';
import { stringifyJson } from '../validation/stringify-json.js';
import { readResponsesContent } from './read-responses-content.js';

/** State of the walk over the items. */
interface Walk {
  messages: Message[];
  /** `reasoning` items waiting for the assistant message of their model turn. */
  reasoning: unknown[];
  /** Items of types the IR does not model, waiting likewise (after `reasoning`). */
  passthrough: unknown[];
  /** The assistant message of the current model turn; later function calls join it. */
  open: Message | undefined;
  /** `function_call_output`s by `call_id`, joined behind their call after the walk. */
  outputs: Map<string, Message>;
}

/**
 * Converts OpenAI Responses API items (a request's `input`, or a response's `output`; shapes in
 * `openai-responses-wire.ts`) and `instructions` into IR, split into `system` and a sanitised
 * `history`. A plain string `input` is one user message.
 *
 * - `instructions` (when not empty) is the first system message; `system` / `developer`
 *   message items are system messages too.
 * - `message` items (also without `type`, when they have a `role`): text parts joined with
 *   `\n`, `input_image` / `input_file` parts as normalised attachments.
 * - `function_call` items become tool calls (`id = call_id`, `arguments` kept as text). Calls
 *   join the open assistant message of the model turn; an output, a user message or new
 *   reasoning closes the turn, so a later call starts a new assistant message.
 * - `function_call_output` items are joined behind their call by `call_id` after the walk, in
 *   call order, named after the call, so outputs that come before their call still attach.
 *   Outputs that match no call are dropped.
 * - `reasoning` items are kept as they are (same objects, `encrypted_content` untouched) in
 *   `_openai_reasoning` on the assistant message that follows them.
 * - Items of any other type (hosted tool calls such as `web_search_call`, `item_reference`,
 *   MCP / computer items …) are kept as they are in `_openai_responses_items` on the assistant
 *   message that follows them; the `openai-responses` target emits `_openai_reasoning` and
 *   then `_openai_responses_items` before that message's own items. To keep the original
 *   order exactly, reasoning that follows such items, and a user or system message that
 *   follows reasoning or such items, first closes them into an empty assistant message (as
 *   does the end of the list).
 *
 * @throws {IRValidationError} when the input does not have the Responses shape; its `path`
 * names the place, e.g. `items[4].content[0].image_url`.
 */
export function fromOpenAIResponses(items: unknown, instructions?: string): ParsedMessages {
  const walk: Walk = { messages: [], reasoning: [], passthrough: [], open: undefined, outputs: new Map() };
  if (instructions !== undefined && instructions !== null) {
    const text = expectString(instructions, 'instructions');
    if (text !== '') walk.messages.push({ role: 'system', content: text });
  }
  const list = typeof items === 'string' ? [{ role: 'user', content: items }] : expectItems(items);
  list.forEach((item, index) => {
    readItem(item, inputPath('items', index), walk);
  });
  flushPending(walk);
  return toParsedMessages(joinOutputs(walk.messages, walk.outputs));
}

function expectItems(items: unknown): unknown[] {
  return expectArray(items, 'items', 'a string or an array of Responses input items');
}

function readItem(value: unknown, path: string, walk: Walk): void {
  const item = expectRecord(value, path, 'an item object');
  const type = item.type === undefined && item.role !== undefined ? 'message' : item.type;
  switch (expectString(type, inputPath(path, 'type'), 'an item type (or a message `role`)')) {
    case 'reasoning':
      if (walk.passthrough.length > 0) flushPending(walk);
      walk.reasoning.push(item);
      return;
    case 'function_call':
      addCall(readFunctionCall(item, path), walk);
      return;
    case 'function_call_output':
      walk.outputs.set(expectString(item.call_id, inputPath(path, 'call_id')), readOutput(item, path));
      walk.open = undefined;
      return;
    case 'message':
      readMessage(item, path, walk);
      return;
    default:
      walk.passthrough.push(item);
  }
}

function readFunctionCall(item: InputRecord, path: string): ToolCall {
  const argumentsPath = inputPath(path, 'arguments');
  const args = item.arguments;
  return {
    id: expectString(item.call_id, inputPath(path, 'call_id')),
    type: 'function',
    function: {
      name: expectString(item.name, inputPath(path, 'name')),
      // Kept as text, valid JSON or not; targets treat '' as {}.
      arguments:
        typeof args === 'string' ? args : args === undefined ? '' : stringifyJson(args, argumentsPath),
    },
  };
}

function addCall(call: ToolCall, walk: Walk): void {
  const pending = walk.reasoning.length > 0 || walk.passthrough.length > 0;
  if (walk.open && !pending) {
    walk.open.tool_calls = [...(walk.open.tool_calls ?? []), call];
    return;
  }
  startAssistant({ role: 'assistant', content: '', tool_calls: [call] }, walk);
}

function readOutput(item: InputRecord, path: string): Message {
  const output = readResponsesContent(item.output, inputPath(path, 'output'));
  const message: Message = { role: 'tool', content: output.text };
  if (output.attachments.length > 0) message.attachments = output.attachments;
  return message;
}

function readMessage(item: InputRecord, path: string, walk: Walk): void {
  const role = expectOneOf(item.role, inputPath(path, 'role'), ['user', 'assistant', 'system', 'developer']);
  const content = readResponsesContent(item.content, inputPath(path, 'content'));
  const message: Message = { role: role === 'developer' ? 'system' : role, content: content.text };
  if (content.attachments.length > 0) message.attachments = content.attachments;
  if (role === 'assistant') {
    startAssistant(message, walk);
    return;
  }
  flushPending(walk);
  walk.messages.push(message);
  walk.open = undefined;
}

/** Pushes an assistant message carrying the pending items; it becomes the open turn. */
function startAssistant(message: Message, walk: Walk): void {
  if (walk.reasoning.length > 0) message._openai_reasoning = walk.reasoning;
  if (walk.passthrough.length > 0) message._openai_responses_items = walk.passthrough;
  walk.reasoning = [];
  walk.passthrough = [];
  walk.messages.push(message);
  walk.open = message;
}

/** Closes pending reasoning / passthrough items into an empty assistant message. */
function flushPending(walk: Walk): void {
  if (walk.reasoning.length === 0 && walk.passthrough.length === 0) return;
  startAssistant({ role: 'assistant', content: '' }, walk);
  walk.open = undefined;
}

/** Puts each call's output right behind its assistant message, in call order, once. */
function joinOutputs(messages: readonly Message[], outputs: Map<string, Message>): Message[] {
  return messages.flatMap((message) => {
    const results: Message[] = [];
    for (const call of message.tool_calls ?? []) {
      const output = outputs.get(call.id);
      if (!output) continue;
      outputs.delete(call.id);
      results.push({ ...output, tool_call_id: call.id, name: call.function.name });
    }
    return [message, ...results];
  });
}
