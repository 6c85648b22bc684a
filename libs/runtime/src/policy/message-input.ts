/**
 * Messages handed to a policy by user code (`promptChat({ message })`, `executeTurn(messages)`,
 * `fork({ messages })`) are a boundary: they come from an app's own storage, often in the seed
 * API's shape. Each one is checked here once and converted to the IR, so an adapter never meets a
 * shape it cannot read (a TypeError deep in a provider SDK), and a bad one is refused with
 * `InvalidMessageHistoryError` naming its path.
 *
 * Accepted besides the IR: the seed's message format — `content` as a string, `null` or an array
 * of parts (`{ type: 'text', text }`, `{ type: 'image', image: { url, detail? } }`,
 * `{ type: 'video', video: { url } }`, and OpenAI's `{ type: 'image_url', image_url }`), flat tool
 * calls `{ id, name, arguments, extra? }` (`extra.thoughtSignature` kept for Gemini),
 * `reasoning_content` (becomes the message's thinking) and `extra` (framework metadata under
 * `extra.rejelly`, dropped before the wire as the seed does).
 */
import {
  type Attachment,
  attachmentFromUrl,
  describeValue,
  IMAGE_DETAILS,
  type ImageDetail,
  joinText,
  type Message,
  type Role,
  type ToolCall,
} from '@flotilla/ir';
import { InvalidMessageHistoryError } from '../errors/policy-errors.js';

const ROLES: readonly Role[] = ['system', 'user', 'assistant', 'tool'];

/** Largest number of messages one policy call takes (a bound, not a context budget). */
export const MAX_INPUT_MESSAGES = 10_000;

/**
 * The IR form of `value`: one message, or an array of them, in the IR's or the seed's shape.
 * @param site what the messages were given to, for the error (`promptChat`, `executeTurn` …)
 * @throws InvalidMessageHistoryError naming the index and path of the first bad field
 */
export function toIrMessages(value: unknown, site: string): Message[] {
  if (!Array.isArray(value)) {
    throw new InvalidMessageHistoryError(
      0,
      `${site} takes an array of messages, got ${describeValue(value)}`,
      site,
    );
  }
  if (value.length > MAX_INPUT_MESSAGES) {
    throw new InvalidMessageHistoryError(
      MAX_INPUT_MESSAGES,
      `${site} takes at most ${MAX_INPUT_MESSAGES} messages, got ${value.length}; compact the history first`,
      site,
    );
  }
  return value.map((message, index) => toIrMessage(message, index, site));
}

/**
 * Tool calls in the IR's nested shape or the seed's flat `{ id, name, arguments }`.
 * @throws InvalidMessageHistoryError naming the path of the first bad call
 */
export function toIrToolCalls(value: unknown, site: string): ToolCall[] {
  const fail = (path: string, reason: string): never => {
    throw new InvalidMessageHistoryError(0, `${site} tool calls${path}: ${reason}`, `${site}${path}`);
  };
  if (!Array.isArray(value)) return fail('', `expected an array of tool calls, got ${describeValue(value)}`);
  return value.map((call, at) => toolCallOf(call, `[${at}]`, fail));
}

/** One message; `index` is its place in the list, for the error. */
export function toIrMessage(value: unknown, index: number, site = 'messages'): Message {
  const fail = (path: string, reason: string): never => {
    throw new InvalidMessageHistoryError(index, `${path}: ${reason}`, `${site}[${index}]${path}`);
  };
  if (!isRecord(value)) return fail('', `expected a message object, got ${describeValue(value)}`);
  const { role, content, tool_calls, reasoning_content, extra } = value;
  if (typeof role !== 'string' || !ROLES.includes(role as Role)) {
    return fail(
      '.role',
      `expected one of ${ROLES.map((r) => `'${r}'`).join(', ')}, got ${describeValue(role)}`,
    );
  }
  const message = restOf(value) as unknown as Message;
  message.role = role as Role;
  message.content = '';
  const parts = contentOf(content, fail);
  message.content = parts.text;
  if (parts.attachments.length > 0) {
    const existing = Array.isArray(value.attachments) ? (value.attachments as Attachment[]) : [];
    message.attachments = [...existing, ...parts.attachments];
  }
  if (tool_calls !== undefined && tool_calls !== null) {
    if (role !== 'assistant')
      fail('.tool_calls', `only an assistant message carries tool calls, not a ${role} one`);
    if (!Array.isArray(tool_calls))
      fail('.tool_calls', `expected an array, got ${describeValue(tool_calls)}`);
    const calls = (tool_calls as unknown[]).map((call, at) => toolCallOf(call, `.tool_calls[${at}]`, fail));
    if (calls.length > 0) message.tool_calls = calls;
  }
  if (role === 'tool' && (typeof message.tool_call_id !== 'string' || message.tool_call_id === '')) {
    fail(
      '.tool_call_id',
      `a tool message needs the id of the call it answers, got ${describeValue(message.tool_call_id)}`,
    );
  }
  if (message.name !== undefined && typeof message.name !== 'string') {
    fail('.name', `expected a string, got ${describeValue(message.name)}`);
  }
  if (reasoning_content !== undefined && reasoning_content !== null) {
    if (typeof reasoning_content !== 'string') {
      fail('.reasoning_content', `expected a string, got ${describeValue(reasoning_content)}`);
    }
    if (reasoning_content !== '' && message.thinking === undefined) {
      message.thinking = { thinking: reasoning_content as string };
    }
  }
  if (extra !== undefined && extra !== null && !isRecord(extra)) {
    fail('.extra', `expected an object, got ${describeValue(extra)}`);
  }
  return message;
}

interface ContentParts {
  text: string;
  attachments: Attachment[];
}

function contentOf(content: unknown, fail: (path: string, reason: string) => never): ContentParts {
  if (typeof content === 'string') return { text: content, attachments: [] };
  if (content === null || content === undefined) return { text: '', attachments: [] };
  if (!Array.isArray(content)) {
    return fail(
      '.content',
      `expected a string, null or an array of content parts, got ${describeValue(content)}`,
    );
  }
  const texts: string[] = [];
  const attachments: Attachment[] = [];
  for (const [at, part] of (content as unknown[]).entries()) {
    const path = `.content[${at}]`;
    if (!isRecord(part)) fail(path, `expected a content part object, got ${describeValue(part)}`);
    const typed = part as Record<string, unknown>;
    switch (typed.type) {
      case 'text':
        if (typeof typed.text !== 'string')
          fail(`${path}.text`, `expected a string, got ${describeValue(typed.text)}`);
        texts.push(typed.text as string);
        break;
      case 'image':
      case 'image_url': {
        const key = typed.type as 'image' | 'image_url';
        const image = typed[key];
        if (!isRecord(image))
          fail(`${path}.${key}`, `expected { url, detail? }, got ${describeValue(image)}`);
        attachments.push(mediaOf(image as Record<string, unknown>, `${path}.${key}`, 'image/png', fail));
        break;
      }
      case 'video': {
        const video = typed.video;
        if (!isRecord(video)) fail(`${path}.video`, `expected { url }, got ${describeValue(video)}`);
        attachments.push(mediaOf(video as Record<string, unknown>, `${path}.video`, 'video/mp4', fail));
        break;
      }
      default:
        fail(
          `${path}.type`,
          `expected 'text', 'image', 'image_url' or 'video', got ${describeValue(typed.type)}`,
        );
    }
  }
  return { text: joinText(texts), attachments };
}

function mediaOf(
  media: Record<string, unknown>,
  path: string,
  fallbackType: string,
  fail: (path: string, reason: string) => never,
): Attachment {
  if (typeof media.url !== 'string' || media.url === '') {
    return fail(`${path}.url`, `expected a URL string, got ${describeValue(media.url)}`);
  }
  let attachment: Attachment;
  try {
    attachment = attachmentFromUrl(media.url, `${path}.url`, { mediaType: fallbackType });
  } catch (error) {
    return fail(`${path}.url`, error instanceof Error ? error.message : String(error));
  }
  if (media.detail !== undefined) {
    if (!IMAGE_DETAILS.includes(media.detail as ImageDetail)) {
      fail(
        `${path}.detail`,
        `expected one of ${IMAGE_DETAILS.join(', ')}, got ${describeValue(media.detail)}`,
      );
    }
    attachment.detail = media.detail as ImageDetail;
  }
  return attachment;
}

function toolCallOf(value: unknown, path: string, fail: (path: string, reason: string) => never): ToolCall {
  if (!isRecord(value)) return fail(path, `expected a tool call object, got ${describeValue(value)}`);
  if (typeof value.id !== 'string' || value.id === '') {
    fail(`${path}.id`, `expected a non-empty string, got ${describeValue(value.id)}`);
  }
  // The IR's (OpenAI's) nested shape, or the seed's flat one.
  const nested = isRecord(value.function);
  const fn = nested ? (value.function as Record<string, unknown>) : value;
  const at = nested ? `${path}.function` : path;
  if (value.function !== undefined && !nested)
    fail(`${path}.function`, `expected { name, arguments }, got ${describeValue(value.function)}`);
  if (typeof fn.name !== 'string' || fn.name === '') {
    fail(`${at}.name`, `expected the tool's name, got ${describeValue(fn.name)}`);
  }
  const args = argumentsOf(fn.arguments, `${at}.arguments`, fail);
  const call: ToolCall = {
    id: value.id as string,
    type: 'function',
    function: { name: fn.name as string, arguments: args },
  };
  const signature =
    typeof value.thoughtSignature === 'string' ? value.thoughtSignature : thoughtSignatureOf(value.extra);
  if (signature !== undefined) call.thoughtSignature = signature;
  return call;
}

function argumentsOf(value: unknown, path: string, fail: (path: string, reason: string) => never): string {
  if (value === undefined || value === null) return '{}';
  if (typeof value === 'string') return value;
  // Some stores keep arguments parsed; the wire takes the JSON text.
  if (isRecord(value)) return JSON.stringify(value);
  return fail(path, `expected the arguments as a JSON string, got ${describeValue(value)}`);
}

function thoughtSignatureOf(extra: unknown): string | undefined {
  if (!isRecord(extra)) return undefined;
  const signature = extra.thoughtSignature ?? extra.thought_signature;
  return typeof signature === 'string' ? signature : undefined;
}

/** The fields {@link toIrMessage} takes apart; every other one is kept as given. */
const TAKEN_APART = new Set(['role', 'content', 'tool_calls', 'reasoning_content', 'extra']);

/**
 * What `const { role, content, tool_calls, reasoning_content, extra, ...rest } = value` gives
 * (own enumerable properties, symbols too, in order), copied by hand: spreading such a rest
 * object into a new one cost ~10 µs per message, and a policy converts every message it sends
 * on every turn.
 */
function restOf(value: Record<string | symbol, unknown>): Record<string | symbol, unknown> {
  const rest: Record<string | symbol, unknown> = {};
  for (const key of Object.keys(value)) {
    if (TAKEN_APART.has(key)) continue;
    if (key === '__proto__') define(rest, key, value[key]);
    else rest[key] = value[key];
  }
  for (const symbol of Object.getOwnPropertySymbols(value))
    if (Object.prototype.propertyIsEnumerable.call(value, symbol)) define(rest, symbol, value[symbol]);
  return rest;
}

function define(target: object, key: string | symbol, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
