import { joinText } from '../input/join-text.js';
import { toParsedMessages } from '../input/to-parsed-messages.js';
import type { Attachment } from '../types/attachment.js';
import type {
  Message,
  ParsedMessages,
  RedactedThinking,
  ThinkingContent,
  ToolCall,
} from '../types/message.js';
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
import { readAnthropicDocument, readAnthropicImage } from './read-anthropic-media.js';

/** What the blocks of one Anthropic message add up to. */
interface MessageParts {
  text: string[];
  attachments: Attachment[];
  toolCalls: ToolCall[];
  thinking?: ThinkingContent;
  redactedThinking?: RedactedThinking;
  /** The summary of a server-side `compaction` block (the last one, which the API honours). */
  compaction?: string;
  cacheBreakpoint: boolean;
  /** Tool messages, one per `tool_result` block, emitted before the message itself. */
  toolResults: Message[];
}

function emptyParts(): MessageParts {
  return { text: [], attachments: [], toolCalls: [], cacheBreakpoint: false, toolResults: [] };
}

/**
 * Converts Anthropic Messages API `messages` and the top-level `system` parameter (shapes in
 * `anthropic-wire.ts`) into IR, split into `system` and a sanitised `history`.
 *
 * - `system`: a string, or text blocks (one system message each; `cache_control` becomes
 *   `_cache_breakpoint: true`).
 * - `text` blocks are joined with `\n`; `image` and `document` blocks become normalised
 *   attachments (see {@link readAnthropicImage}, {@link readAnthropicDocument}).
 * - `tool_use` blocks become tool calls with `arguments = JSON.stringify(input)`.
 * - Each `tool_result` block becomes its own tool message, placed before the rest of its user
 *   message: text joined, images and documents as attachments, `is_error` as
 *   `_tool_error: true`, named after the call it answers.
 * - `thinking` / `redacted_thinking` become `thinking` / `redacted_thinking`; when a message
 *   has several, the last one is kept (the IR has one of each per message).
 * - A server-side `compaction` block becomes `_anthropic_compaction` (its summary) on a message
 *   marked `pinned: true`, so `summarizeHistory` never folds it into a summary of its own; the
 *   Anthropic target sends it back as the same block. A block with `null` content (a failed
 *   compaction, which the API ignores) is skipped.
 * - `cache_control` on any block marks the message (or that tool result) `_cache_breakpoint`.
 * - Blocks of other types (server tools, search results …) are skipped. A message whose blocks
 *   leave nothing (no text, media, calls or thinking) adds no message.
 *
 * @throws {IRValidationError} when the input does not have the Messages API shape; its `path`
 * names the place, e.g. `messages[2].content[0].source.media_type`.
 */
export function fromAnthropic(messages: unknown, system?: unknown): ParsedMessages {
  const systemMessages = readSystem(system);
  const list = expectArray(messages, 'messages', 'an array of Anthropic messages');
  const converted = list.flatMap((message, index) => readMessage(message, inputPath('messages', index)));
  return toParsedMessages([...systemMessages, ...converted]);
}

function readSystem(system: unknown): Message[] {
  if (system === undefined || system === null) return [];
  if (typeof system === 'string') return system === '' ? [] : [{ role: 'system', content: system }];
  const blocks = expectArray(system, 'system', 'a string or an array of text blocks');
  return blocks.map((value, index) => {
    const path = inputPath('system', index);
    const block = expectRecord(value, path, 'a text block object');
    expectOneOf(block.type, inputPath(path, 'type'), ['text']);
    return withCacheBreakpoint(
      { role: 'system', content: expectString(block.text, inputPath(path, 'text')) },
      block.cache_control !== undefined && block.cache_control !== null,
    );
  });
}

function readMessage(value: unknown, path: string): Message[] {
  const message = expectRecord(value, path, 'a message object');
  const role = expectOneOf(message.role, inputPath(path, 'role'), ['user', 'assistant']);
  const contentPath = inputPath(path, 'content');
  if (typeof message.content === 'string') return [{ role, content: message.content }];
  const blocks = expectArray(message.content, contentPath, 'a string or an array of content blocks');
  const parts = emptyParts();
  blocks.forEach((block, index) => {
    readBlock(block, inputPath(contentPath, index), parts);
  });
  const result = toMessage(role, parts);
  return result ? [...parts.toolResults, result] : parts.toolResults;
}

function readBlock(value: unknown, path: string, parts: MessageParts): void {
  const block = expectRecord(value, path, 'a content block object');
  const type = expectString(block.type, inputPath(path, 'type'));
  const cached = block.cache_control !== undefined && block.cache_control !== null;
  if (type === 'tool_result') {
    parts.toolResults.push(withCacheBreakpoint(readToolResult(block, path), cached));
    return;
  }
  if (!readContentBlock(type, block, path, parts)) return;
  if (cached) parts.cacheBreakpoint = true;
}

/** Adds one non-tool-result block to `parts`; `false` when the type is not one the IR keeps. */
function readContentBlock(type: string, block: InputRecord, path: string, parts: MessageParts): boolean {
  switch (type) {
    case 'text':
      parts.text.push(expectString(block.text, inputPath(path, 'text')));
      return true;
    case 'image':
      parts.attachments.push(readAnthropicImage(block, path));
      return true;
    case 'document': {
      const document = readAnthropicDocument(block, path);
      parts.text.push(...document.text);
      parts.attachments.push(...document.attachments);
      return true;
    }
    case 'tool_use':
      parts.toolCalls.push(readToolUse(block, path));
      return true;
    case 'thinking':
      parts.thinking = readThinking(block, path);
      return true;
    case 'redacted_thinking':
      parts.redactedThinking = { data: expectString(block.data, inputPath(path, 'data')) };
      return true;
    case 'compaction': {
      const summary = optionalString(block.content, inputPath(path, 'content'));
      if (summary === undefined) return false;
      parts.compaction = summary;
      return true;
    }
    default:
      return false;
  }
}

function readToolUse(block: InputRecord, path: string): ToolCall {
  return {
    id: expectString(block.id, inputPath(path, 'id')),
    type: 'function',
    function: {
      name: expectString(block.name, inputPath(path, 'name')),
      arguments: stringifyJson(block.input, inputPath(path, 'input')),
    },
  };
}

function readThinking(block: InputRecord, path: string): ThinkingContent {
  const thinking = expectString(block.thinking, inputPath(path, 'thinking'));
  const signature = optionalString(block.signature, inputPath(path, 'signature'));
  return signature === undefined ? { thinking } : { thinking, signature };
}

function readToolResult(block: InputRecord, path: string): Message {
  const toolCallId = expectString(block.tool_use_id, inputPath(path, 'tool_use_id'));
  const contentPath = inputPath(path, 'content');
  const parts = emptyParts();
  if (typeof block.content === 'string') parts.text.push(block.content);
  else if (block.content !== undefined && block.content !== null) {
    const blocks = expectArray(block.content, contentPath, 'a string or an array of content blocks');
    blocks.forEach((value, index) => {
      const blockPath = inputPath(contentPath, index);
      const inner = expectRecord(value, blockPath, 'a content block object');
      const type = expectString(inner.type, inputPath(blockPath, 'type'));
      if (type === 'text' || type === 'image' || type === 'document')
        readContentBlock(type, inner, blockPath, parts);
    });
  }
  const message: Message = { role: 'tool', tool_call_id: toolCallId, content: joinText(parts.text) };
  if (parts.attachments.length > 0) message.attachments = parts.attachments;
  if (block.is_error === true) message._tool_error = true;
  return message;
}

function toMessage(role: 'user' | 'assistant', parts: MessageParts): Message | undefined {
  const content = joinText(parts.text);
  const empty =
    content === '' &&
    parts.attachments.length === 0 &&
    parts.toolCalls.length === 0 &&
    !parts.thinking &&
    !parts.redactedThinking &&
    parts.compaction === undefined;
  if (empty) return undefined;
  const message: Message = { role, content };
  if (parts.toolCalls.length > 0) message.tool_calls = parts.toolCalls;
  if (parts.attachments.length > 0) message.attachments = parts.attachments;
  if (parts.thinking) message.thinking = parts.thinking;
  if (parts.redactedThinking) message.redacted_thinking = parts.redactedThinking;
  if (parts.compaction !== undefined) {
    message._anthropic_compaction = parts.compaction;
    message.pinned = true;
  }
  return withCacheBreakpoint(message, parts.cacheBreakpoint);
}

function withCacheBreakpoint(message: Message, cached: boolean): Message {
  return cached ? { ...message, _cache_breakpoint: true } : message;
}
