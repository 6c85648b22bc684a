import type { Message, Role } from '../types/message.js';
import type { WarningSink } from './warning-sink.js';

/**
 * The instruction that replaces a prefill on targets without native prefill support.
 * Appended to the last user text after a blank line.
 */
export function prefillInstruction(prefill: string): string {
  return (
    `[System Note] SYSTEM INSTRUCTION: Your response MUST start verbatim with "${prefill}" ` +
    'and continue from there, without any preamble.'
  );
}

/** A trailing assistant message with no tool calls: the default prefill test. */
export function isPlainAssistant(message: Message): boolean {
  return message.role === 'assistant' && (message.tool_calls?.length ?? 0) === 0;
}

/** What {@link degradePrefill} did. */
export interface DegradedPrefill {
  /** The messages to compile: the trailing prefill removed, the instruction placed. */
  messages: Message[];
  /** The instruction when no message of an allowed role could take it; the target places it. */
  unplacedInstruction?: string;
}

/**
 * For targets without native prefill (OpenAI, Gemini, Responses): removes a trailing plain
 * assistant message and appends {@link prefillInstruction} to the last message of one of
 * `roles` (a copy; attachments and other fields are kept). Reports `prefill-degraded`.
 * An empty trailing assistant carries nothing to enforce and is just removed.
 * Never mutates `messages`.
 */
export function degradePrefill(
  messages: Message[],
  sink: WarningSink,
  options: { roles: Role[]; isPrefill?: (message: Message) => boolean },
): DegradedPrefill {
  const last = messages.at(-1);
  const isPrefill = options.isPrefill ?? isPlainAssistant;
  if (!last || !isPrefill(last)) return { messages };
  const rest = messages.slice(0, -1);
  if (last.content.trim() === '') return { messages: rest };
  sink.warn(
    'prefill-degraded',
    'a trailing assistant message (prefill) cannot be sent; it became an instruction in the last user text',
    messages.length - 1,
  );
  const instruction = prefillInstruction(last.content);
  const targetIndex = findLastIndex(rest, (message) => options.roles.includes(message.role));
  if (targetIndex < 0) return { messages: rest, unplacedInstruction: instruction };
  const target = rest[targetIndex]!;
  const content = target.content === '' ? instruction : `${target.content}\n\n${instruction}`;
  rest[targetIndex] = { ...target, content };
  return { messages: rest };
}

function findLastIndex<T>(items: T[], predicate: (item: T) => boolean): number {
  for (let index = items.length - 1; index >= 0; index--) if (predicate(items[index]!)) return index;
  return -1;
}
