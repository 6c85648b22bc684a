import { IRValidationError } from '../errors.js';
import {
  attachmentFromFileData,
  attachmentFromFileId,
  attachmentFromUrl,
} from '../input/attachment-from-reference.js';
import { CallIdQueue } from '../input/call-id-queue.js';
import { joinText } from '../input/join-text.js';
import { toParsedMessages } from '../input/to-parsed-messages.js';
import { withImageDetail } from '../input/with-image-detail.js';
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

const ROLES = ['system', 'developer', 'user', 'assistant', 'tool', 'function'] as const;
/** The image `detail` values Chat Completions takes. */
const CHAT_IMAGE_DETAILS = ['auto', 'low', 'high'] as const;

/** Walk state: the legacy `function_call` / `function` role pairs by name. */
interface Walk {
  legacyCalls: CallIdQueue;
}

/**
 * Converts OpenAI Chat Completions `messages` (what you pass to `chat.completions.create`; the shapes
 * are declared in `openai-wire.ts` as `OpenAIChatMessageParam`) into IR, split into `system` and a sanitised `history`.
 *
 * - `system` and `developer` messages become system messages (text parts joined with `\n`);
 *   leading ones go to `system`, later ones stay in place marked `_positional: true`.
 * - `user` text parts are joined with `\n`; `image_url`, `file` (`file_data` or `file_id`) and
 *   `input_audio` parts become normalised attachments (a data URL is split into media type and
 *   raw base64; a `file_id` is `source: 'file-id'` with a media type from `filename`, else
 *   `application/octet-stream`); an image's `detail` is kept.
 * - `assistant` text and refusal (parts or the `refusal` field) become `content`; function
 *   `tool_calls` are copied with `arguments` kept as text, even when it is not valid JSON.
 *   Custom (non-function) tool calls are skipped, so their results are dropped as orphans.
 * - The participant `name` of system, developer, user and assistant messages is kept in `name`.
 * - `tool` messages become tool results, named after the call they answer.
 * - The deprecated `function_call` / `function` role pair becomes a tool call with a generated
 *   id `openai-fn-<name>-<n>` and its result.
 * - Content parts of unknown types are skipped, so newer payloads still load.
 *
 * @throws {IRValidationError} when `messages` does not have the Chat Completions shape; its
 * `path` names the place, e.g. `messages[3].content[1].image_url`.
 */
export function fromOpenAI(messages: unknown): ParsedMessages {
  const list = expectArray(messages, 'messages', 'an array of Chat Completions messages');
  const walk: Walk = { legacyCalls: new CallIdQueue('openai-fn') };
  const converted = list.map((message, index) => readMessage(message, inputPath('messages', index), walk));
  return toParsedMessages(converted);
}

function readMessage(value: unknown, path: string, walk: Walk): Message {
  const message = expectRecord(value, path, 'a message object');
  const role = expectOneOf(message.role, inputPath(path, 'role'), ROLES);
  const contentPath = inputPath(path, 'content');
  switch (role) {
    case 'system':
    case 'developer':
      return withName(
        { role: 'system', content: readTextContent(message.content, contentPath) },
        message,
        path,
      );
    case 'user':
      return withName(readUserMessage(message.content, contentPath), message, path);
    case 'assistant':
      return withName(readAssistantMessage(message, path, walk), message, path);
    case 'tool':
      return {
        role: 'tool',
        content: readTextContent(message.content, contentPath),
        tool_call_id: expectString(message.tool_call_id, inputPath(path, 'tool_call_id')),
      };
    case 'function':
      return readFunctionResult(message, path, walk);
  }
}

/** The participant `name` a system, user or assistant message may carry. */
function withName(converted: Message, message: InputRecord, path: string): Message {
  const name = optionalString(message.name, inputPath(path, 'name'));
  return name === undefined ? converted : { ...converted, name };
}

/** A string, or an array whose text parts are joined; other part types are skipped. */
function readTextContent(value: unknown, path: string): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  const parts = expectArray(value, path, 'a string or an array of content parts');
  return joinText(parts.flatMap((part, index) => readTextPart(part, inputPath(path, index))));
}

function readTextPart(value: unknown, path: string): string[] {
  const part = expectRecord(value, path, 'a content part object');
  const type = expectString(part.type, inputPath(path, 'type'));
  if (type === 'text') return [expectString(part.text, inputPath(path, 'text'))];
  if (type === 'refusal') return [expectString(part.refusal, inputPath(path, 'refusal'))];
  return [];
}

function readUserMessage(content: unknown, path: string): Message {
  if (typeof content === 'string') return { role: 'user', content };
  const parts = expectArray(content, path, 'a string or an array of content parts');
  const text: string[] = [];
  const attachments: Attachment[] = [];
  parts.forEach((value, index) => {
    const partPath = inputPath(path, index);
    const part = expectRecord(value, partPath, 'a content part object');
    const type = expectString(part.type, inputPath(partPath, 'type'));
    if (type === 'text') text.push(expectString(part.text, inputPath(partPath, 'text')));
    const attachment = readMediaPart(type, part, partPath);
    if (attachment) attachments.push(attachment);
  });
  const message: Message = { role: 'user', content: joinText(text) };
  if (attachments.length > 0) message.attachments = attachments;
  return message;
}

function readMediaPart(type: string, part: InputRecord, path: string): Attachment | undefined {
  if (type === 'image_url') return readImagePart(part, inputPath(path, 'image_url'));
  if (type === 'file') return readFilePart(part, inputPath(path, 'file'));
  if (type === 'input_audio') return readAudioPart(part, inputPath(path, 'input_audio'));
  return undefined;
}

function readImagePart(part: InputRecord, path: string): Attachment {
  const image = expectRecord(part.image_url, path, 'an object with a `url`');
  const url = expectString(image.url, inputPath(path, 'url'), 'an http(s) or base64 data: URL');
  const attachment = attachmentFromUrl(url, inputPath(path, 'url'), { mediaType: 'image/*' });
  return withImageDetail(attachment, image.detail, inputPath(path, 'detail'), CHAT_IMAGE_DETAILS);
}

function readFilePart(part: InputRecord, path: string): Attachment {
  const file = expectRecord(part.file, path, 'an object with `file_data` or `file_id`');
  const filename = optionalString(file.filename, inputPath(path, 'filename'));
  const hints = { mediaType: 'application/octet-stream', filename };
  const fileData = optionalString(file.file_data, inputPath(path, 'file_data'));
  if (fileData !== undefined) return attachmentFromFileData(fileData, hints);
  const fileId = optionalString(file.file_id, inputPath(path, 'file_id'));
  if (fileId !== undefined) return attachmentFromFileId(fileId, hints);
  throw new IRValidationError(path, 'expected `file_data` (a base64 data: URL) or `file_id`, got neither');
}

function readAudioPart(part: InputRecord, path: string): Attachment {
  const audio = expectRecord(part.input_audio, path, 'an object with `data` and `format`');
  const data = expectString(audio.data, inputPath(path, 'data'), 'base64 audio');
  const format = expectString(audio.format, inputPath(path, 'format'), "'wav' or 'mp3'");
  return { mediaType: format === 'mp3' ? 'audio/mpeg' : `audio/${format}`, data, source: 'base64' };
}

function readAssistantMessage(message: InputRecord, path: string, walk: Walk): Message {
  const content = readTextContent(message.content, inputPath(path, 'content'));
  const refusal = optionalString(message.refusal, inputPath(path, 'refusal'));
  const calls = readToolCalls(message.tool_calls, inputPath(path, 'tool_calls'));
  const legacy = readLegacyFunctionCall(message.function_call, inputPath(path, 'function_call'), walk);
  const result: Message = { role: 'assistant', content: content || (refusal ?? '') };
  const toolCalls = legacy ? [...calls, legacy] : calls;
  if (toolCalls.length > 0) result.tool_calls = toolCalls;
  return result;
}

function readToolCalls(value: unknown, path: string): ToolCall[] {
  if (value === undefined || value === null) return [];
  const calls = expectArray(value, path, 'an array of tool calls');
  return calls.flatMap((call, index) => readToolCall(call, inputPath(path, index)));
}

function readToolCall(value: unknown, path: string): ToolCall[] {
  const call = expectRecord(value, path, 'a tool call object');
  const type = call.type ?? 'function';
  if (type !== 'function') return []; // custom tools have no IR counterpart
  const fn = expectRecord(
    call.function,
    inputPath(path, 'function'),
    'an object with `name` and `arguments`',
  );
  return [
    {
      id: expectString(call.id, inputPath(path, 'id')),
      type: 'function',
      function: {
        name: expectString(fn.name, inputPath(path, 'function.name')),
        arguments: readArguments(fn.arguments, inputPath(path, 'function.arguments')),
      },
    },
  ];
}

/** Arguments stay text, valid JSON or not; an object some clients send is serialised. */
function readArguments(value: unknown, path: string): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  return stringifyJson(value, path);
}

function readLegacyFunctionCall(value: unknown, path: string, walk: Walk): ToolCall | undefined {
  if (value === undefined || value === null) return undefined;
  const call = expectRecord(value, path, 'an object with `name` and `arguments`');
  const name = expectString(call.name, inputPath(path, 'name'));
  const id = walk.legacyCalls.enqueue(name);
  return {
    id,
    type: 'function',
    function: { name, arguments: readArguments(call.arguments, inputPath(path, 'arguments')) },
  };
}

function readFunctionResult(message: InputRecord, path: string, walk: Walk): Message {
  const name = expectString(message.name, inputPath(path, 'name'));
  const content = readTextContent(message.content, inputPath(path, 'content'));
  const id = walk.legacyCalls.answer(name);
  // Unanswerable results get an id no call declares, so the sanitiser drops them as orphans.
  return { role: 'tool', name, content, tool_call_id: id ?? `openai-fn-${name}-unmatched` };
}
