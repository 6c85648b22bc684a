import { IRValidationError } from '../errors.js';
import type { Message } from '../types/message.js';
import { describeValue } from '../validation/describe-value.js';

/** What a long tool result is replaced with in what the summariser reads (ContextChef's wording). */
export function toolResultStub(toolName: string, length: number): string {
  return `[Tool ${toolName} returned ${length} chars; omitted before summarization]`;
}

/**
 * Replaces the content of every tool message longer than `threshold` characters by
 * {@link toolResultStub}, naming the tool from the call it answers (else the message's `name`,
 * else `unknown`). Only what the summariser reads is stubbed; the messages themselves are not
 * changed (copies are returned for the stubbed ones).
 */
export function stubLongToolResults(messages: readonly Message[], threshold: number): Message[] {
  const callNames = new Map<string, string>();
  for (const message of messages)
    for (const call of message.tool_calls ?? []) callNames.set(call.id, call.function.name);
  return messages.map((message) => {
    if (message.role !== 'tool' || message.content.length <= threshold) return message;
    const name =
      (message.tool_call_id === undefined ? undefined : callNames.get(message.tool_call_id)) ??
      message.name ??
      'unknown';
    return { ...message, content: toolResultStub(name, message.content.length) };
  });
}

/**
 * Checks `summarizeHistory`'s `toolResultStubThreshold`: absent, or a number of characters from 0.
 * @throws {IRValidationError} at `toolResultStubThreshold` otherwise.
 */
export function readStubThreshold(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number' && value >= 0) return value;
  const shown = typeof value === 'number' ? String(value) : describeValue(value);
  throw new IRValidationError(
    'toolResultStubThreshold',
    `expected a number of characters from 0 (or nothing, to send tool results whole), got ${shown}`,
  );
}
