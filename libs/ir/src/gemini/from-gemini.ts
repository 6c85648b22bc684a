import { IRValidationError } from '../errors.js';
import { CallIdQueue } from '../input/call-id-queue.js';
import { joinText } from '../input/join-text.js';
import { toParsedMessages } from '../input/to-parsed-messages.js';
import type { Attachment } from '../types/attachment.js';
import type { Message, ParsedMessages, ToolCall } from '../types/message.js';
import {
  expectArray,
  expectOneOf,
  expectRecord,
  expectString,
  type InputRecord,
  optionalString,
} from '../validation/expect-value.js';
import { inputPath } from '../validation/input-path.js';
import { stringifyJson } from '../validation/stringify-json.js';
import { readGeminiMedia } from './read-gemini-media.js';

/** What the parts of one Gemini content add up to. */
interface ContentParts {
  text: string[];
  thoughts: string[];
  attachments: Attachment[];
  toolCalls: ToolCall[];
  textSignature?: string;
  /** Tool messages, one per `functionResponse` part, emitted before the content itself. */
  toolResults: Message[];
}

/**
 * Converts Gemini `generateContent` `contents` and `systemInstruction` (shapes in
 * `gemini-wire.ts`) into IR, split into `system` and a sanitised `history`.
 *
 * - `systemInstruction`: a string, a content `{ parts }`, a part or a list of parts; each text
 *   part becomes one system message.
 * - Role `model` becomes `assistant`; `user`, legacy `function` and a missing role become `user`.
 * - Text parts are joined with `\n`; parts with `thought: true` go to `thinking` instead.
 *   The `thoughtSignature` of the last signed text part is kept as `_gemini_thought_signature`.
 * - `inlineData` / `fileData` become normalised attachments (see {@link readGeminiMedia}).
 * - `functionCall` becomes a tool call (`arguments = JSON.stringify(args)`, `'{}'` when absent)
 *   with the part's `thoughtSignature` as `ToolCall.thoughtSignature`. Its id is the native
 *   `functionCall.id` when present, else `gemini-fc-<name>-<n>` (`n` counts calls of that name
 *   across the whole conversation), so the same contents always give the same ids.
 * - `functionResponse` becomes a tool message named after the function, content
 *   `JSON.stringify(response)`, media in `parts` as attachments. It answers
 *   `functionResponse.id` when present, else the oldest unanswered call of that name. A
 *   response no call is waiting for is dropped as an orphan (never a duplicate result).
 * - Other parts (code execution, video metadata …) are skipped.
 *
 * @throws {IRValidationError} when the input does not have the Gemini shape; its `path` names
 * the place, e.g. `contents[1].parts[0].functionCall.name`.
 */
export function fromGemini(contents: unknown, systemInstruction?: unknown): ParsedMessages {
  const system = readSystemInstruction(systemInstruction);
  const list = expectArray(contents, 'contents', 'an array of Gemini contents');
  const calls = new CallIdQueue('gemini-fc');
  const converted = list.flatMap((content, index) =>
    readContent(content, inputPath('contents', index), calls),
  );
  return toParsedMessages([...system, ...converted]);
}

function readSystemInstruction(value: unknown): Message[] {
  const path = 'systemInstruction';
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return value === '' ? [] : [{ role: 'system', content: value }];
  if (Array.isArray(value)) return value.map((part, index) => readSystemPart(part, inputPath(path, index)));
  const record = expectRecord(value, path, 'a string, a content with `parts`, or a list of text parts');
  if (record.parts === undefined) return [readSystemPart(record, path)];
  const partsPath = inputPath(path, 'parts');
  const parts = expectArray(record.parts, partsPath, 'an array of text parts');
  return parts.map((part, index) => readSystemPart(part, inputPath(partsPath, index)));
}

function readSystemPart(value: unknown, path: string): Message {
  const part = expectRecord(value, path, 'a text part object');
  if (typeof part.text === 'string') return { role: 'system', content: part.text };
  throw new IRValidationError(
    path,
    'expected a text part (`{ text }`): system instructions can only hold text',
  );
}

function readContent(value: unknown, path: string, calls: CallIdQueue): Message[] {
  const content = expectRecord(value, path, 'a content object with `role` and `parts`');
  const rolePath = inputPath(path, 'role');
  const role =
    content.role === undefined ? 'user' : expectOneOf(content.role, rolePath, ['user', 'model', 'function']);
  const partsPath = inputPath(path, 'parts');
  const parts = content.parts === undefined ? [] : expectArray(content.parts, partsPath, 'an array of parts');
  const collected: ContentParts = { text: [], thoughts: [], attachments: [], toolCalls: [], toolResults: [] };
  parts.forEach((part, index) => {
    readPart(part, inputPath(partsPath, index), collected, calls);
  });
  const message = toMessage(role === 'model' ? 'assistant' : 'user', collected);
  return message ? [...collected.toolResults, message] : collected.toolResults;
}

function readPart(value: unknown, path: string, collected: ContentParts, calls: CallIdQueue): void {
  const part = expectRecord(value, path, 'a part object');
  const signature = optionalString(part.thoughtSignature, inputPath(path, 'thoughtSignature'));
  if (part.functionCall !== undefined && part.functionCall !== null) {
    collected.toolCalls.push(
      readFunctionCall(part.functionCall, inputPath(path, 'functionCall'), signature, calls),
    );
    return;
  }
  if (part.functionResponse !== undefined && part.functionResponse !== null) {
    collected.toolResults.push(
      readFunctionResponse(part.functionResponse, inputPath(path, 'functionResponse'), calls),
    );
    return;
  }
  const text = optionalString(part.text, inputPath(path, 'text'));
  if (text !== undefined) {
    (part.thought === true ? collected.thoughts : collected.text).push(text);
    if (signature !== undefined) collected.textSignature = signature;
    return;
  }
  const attachment = readGeminiMedia(part, path);
  if (attachment) collected.attachments.push(attachment);
}

function readFunctionCall(
  value: unknown,
  path: string,
  signature: string | undefined,
  calls: CallIdQueue,
): ToolCall {
  const call = expectRecord(value, path, 'an object with `name` and `args`');
  const name = expectString(call.name, inputPath(path, 'name'));
  const id = calls.enqueue(name, optionalString(call.id, inputPath(path, 'id')));
  const toolCall: ToolCall = {
    id,
    type: 'function',
    function: { name, arguments: stringifyJson(call.args, inputPath(path, 'args')) },
  };
  if (signature !== undefined) toolCall.thoughtSignature = signature;
  return toolCall;
}

function readFunctionResponse(value: unknown, path: string, calls: CallIdQueue): Message {
  const response = expectRecord(value, path, 'an object with `name` and `response`');
  const name = expectString(response.name, inputPath(path, 'name'));
  const id = calls.answer(name, optionalString(response.id, inputPath(path, 'id')));
  const message: Message = {
    role: 'tool',
    // An id no call declares: the sanitiser drops the response as an orphan.
    tool_call_id: id ?? `gemini-fc-${name}-unmatched`,
    name,
    content: stringifyJson(response.response, inputPath(path, 'response')),
  };
  const attachments = readResponseMedia(response, inputPath(path, 'parts'));
  if (attachments.length > 0) message.attachments = attachments;
  return message;
}

/** Multimodal function responses carry media in `functionResponse.parts`. */
function readResponseMedia(response: InputRecord, path: string): Attachment[] {
  if (response.parts === undefined || response.parts === null) return [];
  const parts = expectArray(response.parts, path, 'an array of parts');
  return parts.flatMap((value, index) => {
    const partPath = inputPath(path, index);
    return readGeminiMedia(expectRecord(value, partPath, 'a part object'), partPath) ?? [];
  });
}

function toMessage(role: 'user' | 'assistant', collected: ContentParts): Message | undefined {
  const content = joinText(collected.text);
  const thinking = joinText(collected.thoughts);
  const { attachments, toolCalls, textSignature } = collected;
  if (content === '' && thinking === '' && attachments.length === 0 && toolCalls.length === 0)
    return undefined;
  const message: Message = { role, content };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  if (attachments.length > 0) message.attachments = attachments;
  if (thinking !== '') message.thinking = { thinking };
  if (textSignature !== undefined) message._gemini_thought_signature = textSignature;
  return message;
}
