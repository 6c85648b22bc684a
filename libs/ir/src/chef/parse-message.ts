import { IRValidationError } from '../errors.js';
import { type Attachment, IMAGE_DETAILS } from '../types/attachment.js';
import type { Message, ToolCall } from '../types/message.js';
import {
  expectArray,
  expectOneOf,
  expectRecord,
  expectString,
  type InputRecord,
} from '../validation/expect-value.js';
import { inputPath } from '../validation/input-path.js';

const ROLES = ['system', 'user', 'assistant', 'tool'] as const;
const SOURCES = ['base64', 'url', 'file-id'] as const;
const OPTIONAL_STRINGS = [
  'name',
  'tool_call_id',
  '_gemini_thought_signature',
  '_anthropic_compaction',
] as const;
const OPTIONAL_BOOLEANS = ['_cache_breakpoint', 'pinned', '_positional', '_tool_error'] as const;
const OPTIONAL_ARRAYS = ['_openai_reasoning', '_openai_responses_items'] as const;

/**
 * Checks that stored data (a snapshot read back from Redis or a file) is an IR {@link Message}:
 * the fields the IR defines must have their documented types; any other field is passthrough
 * and kept as it is. Absent and `undefined` fields are equivalent.
 * @throws {IRValidationError} naming the first offending path, e.g. `history[3].tool_calls[0].id`.
 */
export function parseMessage(value: unknown, path: string): Message {
  const message = expectRecord(value, path, 'a message object');
  expectOneOf(message.role, inputPath(path, 'role'), ROLES);
  expectString(message.content, inputPath(path, 'content'), 'a string (the IR keeps text in content)');
  for (const key of OPTIONAL_STRINGS) optional(message, key, path, expectString);
  for (const key of OPTIONAL_BOOLEANS) optional(message, key, path, expectBoolean);
  for (const key of OPTIONAL_ARRAYS) optional(message, key, path, expectArray);
  optional(message, 'tool_calls', path, parseToolCalls);
  optional(message, 'attachments', path, parseAttachments);
  optional(message, 'thinking', path, (thinking, at) => {
    const record = expectRecord(thinking, at);
    expectString(record.thinking, inputPath(at, 'thinking'));
    optional(record, 'signature', at, expectString);
  });
  optional(message, 'redacted_thinking', path, (redacted, at) => {
    expectString(expectRecord(redacted, at).data, inputPath(at, 'data'));
  });
  return message as Message;
}

function optional(
  record: InputRecord,
  key: string,
  path: string,
  check: (value: unknown, path: string) => unknown,
): void {
  if (record[key] !== undefined) check(record[key], inputPath(path, key));
}

function expectBoolean(value: unknown, path: string): boolean {
  if (typeof value === 'boolean') return value;
  throw new IRValidationError(path, `expected true or false, got ${JSON.stringify(value) ?? 'undefined'}`);
}

function parseToolCalls(value: unknown, path: string): ToolCall[] {
  return expectArray(value, path).map((entry, index) => {
    const at = inputPath(path, index);
    const call = expectRecord(entry, at, 'a tool call object');
    expectString(call.id, inputPath(at, 'id'));
    expectOneOf(call.type, inputPath(at, 'type'), ['function']);
    const fn = expectRecord(call.function, inputPath(at, 'function'));
    expectString(fn.name, inputPath(inputPath(at, 'function'), 'name'));
    expectString(fn.arguments, inputPath(inputPath(at, 'function'), 'arguments'), 'a string of JSON text');
    optional(call, 'thoughtSignature', at, expectString);
    return call as unknown as ToolCall;
  });
}

function parseAttachments(value: unknown, path: string): Attachment[] {
  return expectArray(value, path).map((entry, index) => {
    const at = inputPath(path, index);
    const attachment = expectRecord(entry, at, 'an attachment object');
    expectString(attachment.mediaType, inputPath(at, 'mediaType'));
    expectString(attachment.data, inputPath(at, 'data'));
    optional(attachment, 'filename', at, expectString);
    optional(attachment, 'source', at, (source, sourcePath) => expectOneOf(source, sourcePath, SOURCES));
    optional(attachment, 'detail', at, (detail, detailPath) =>
      expectOneOf(detail, detailPath, IMAGE_DETAILS),
    );
    return attachment as unknown as Attachment;
  });
}
