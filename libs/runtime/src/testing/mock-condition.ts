import type { Message } from '@flotilla/ir';
import type { ModelRequest } from '../model/model-adapter.js';
import type { MockPayload } from './mock-payload.js';
import { toMockPayload } from './mock-payload.js';

/**
 * When a mock rule answers:
 * - `{ input }`: a substring of (or a RegExp matching) every user message's text joined by a
 *   space; each attachment reads as `[image]`, `[audio]`, `[video]` or `[file]`;
 * - `{ toolName }`: the request is about that tool — the last message is its result, the last
 *   assistant turn called it, or a user message mentions its name;
 * - a predicate over the request and the seed's payload fields ({@link MockPayload}).
 */
export type MockCondition = { input: string | RegExp } | { toolName: string } | MockPredicate;

/** A custom condition over the request as the adapter received it (see {@link MockPayload}). */
export type MockPredicate = (payload: MockPayload) => boolean;

/** Whether `condition` holds for `request`. */
export function matchesCondition(condition: MockCondition, request: ModelRequest): boolean {
  if (typeof condition === 'function') return condition(toMockPayload(request));
  if ('input' in condition) return matchesInput(condition.input, userText(request.messages));
  return concernsTool(condition.toolName, request.messages);
}

/** Every user message's text joined by a space, attachments as placeholders. */
export function userText(messages: Message[]): string {
  return userTexts(messages).join(' ');
}

/** Each user message's text, attachments as placeholders. */
export function userTexts(messages: Message[]): string[] {
  return messages.filter((message) => message.role === 'user').map(messageText);
}

/** The text of the last user message, attachments as placeholders (`''` when none). */
export function lastUserText(messages: Message[]): string {
  const last = messages.findLast((message) => message.role === 'user');
  return last ? messageText(last) : '';
}

function messageText(message: Message): string {
  const media = (message.attachments ?? []).map((attachment) => `[${mediaKind(attachment.mediaType)}]`);
  return [message.content, ...media].filter((part) => part !== '').join(' ');
}

function mediaKind(mediaType: string): string {
  const kind = mediaType.split('/')[0];
  return kind === 'image' || kind === 'audio' || kind === 'video' ? kind : 'file';
}

function matchesInput(input: string | RegExp, text: string): boolean {
  if (typeof input === 'string') return text.includes(input);
  // A global or sticky RegExp keeps `lastIndex` between calls; reset it so matching is stable.
  input.lastIndex = 0;
  return input.test(text);
}

function concernsTool(toolName: string, messages: Message[]): boolean {
  const lastAssistant = messages.findLast((message) => message.role === 'assistant');
  const calledNames = new Map((lastAssistant?.tool_calls ?? []).map((call) => [call.id, call.function.name]));
  const last = messages.at(-1);
  if (last?.role === 'tool') {
    // IR tool messages may lack `name` (e.g. from OpenAI); resolve it through the call id.
    const name = last.name ?? calledNames.get(last.tool_call_id ?? '');
    if (name === toolName) return true;
  }
  if ([...calledNames.values()].includes(toolName)) return true;
  return userText(messages).includes(toolName);
}
