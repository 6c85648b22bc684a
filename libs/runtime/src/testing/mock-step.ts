import type { MockAction, MockResponder, MockToolCall, MockUsage } from './mock-action.js';
import { replyText } from './mock-action.js';

/** Latency and usage any sequence step may carry. */
export interface MockStepOptions {
  /** Report this usage instead of the default usage. */
  usage?: MockUsage;
  /** Answer after this many milliseconds. @default 0 */
  delay?: number;
  /** Provider data on the answer message (the seed's message-level `extra`). */
  extra?: Record<string, unknown>;
}

/**
 * One answer of `mock.sequence([...])`, used for exactly one call, in order. A bare string is
 * a text answer; `json` is sent as JSON text; `toolCalls`, `error` and `respond` mirror
 * `thenCallTools`, `thenThrow` and `thenDo`.
 */
export type MockStep =
  | string
  | ({ text: string } & MockStepOptions)
  | ({ json: unknown } & MockStepOptions)
  /** Text streamed in these chunks (or a value's JSON in `chunkSize`-character chunks). */
  | ({ stream: string[] | unknown; chunkSize?: number } & MockStepOptions)
  | ({ toolCalls: MockToolCall[] } & MockStepOptions)
  | ({ error: unknown } & MockStepOptions)
  | ({ respond: MockResponder } & MockStepOptions);

/** Compiles a sequence step to the action rules use too. */
export function stepToAction(step: MockStep): MockAction {
  if (typeof step === 'string') return { kind: 'text', text: step };
  const action = stepAnswer(step);
  if (step.usage) action.usage = { ...step.usage };
  if (step.delay !== undefined) action.delayMs = step.delay;
  if (step.extra) action.extra = { ...step.extra };
  return action;
}

function stepAnswer(step: Exclude<MockStep, string>): MockAction {
  if ('text' in step) return { kind: 'text', text: step.text };
  if ('json' in step) return { kind: 'text', text: replyText(step.json) };
  if ('stream' in step) return streamedText(step.stream, step.chunkSize);
  if ('toolCalls' in step) return { kind: 'tool-calls', calls: [...step.toolCalls] };
  if ('error' in step) return { kind: 'throw', error: step.error };
  return { kind: 'respond', responder: step.respond };
}

/**
 * Text streamed in chunks (seed `thenStream`): an array is the chunks themselves; any other
 * value is its text (a string, or JSON) cut into `chunkSize`-character chunks.
 * @throws RangeError for a chunk size that is not a whole number of 1 or more
 */
export function streamedText(value: unknown, chunkSize = 1): MockAction {
  if (!Number.isInteger(chunkSize) || chunkSize < 1)
    throw new RangeError(`thenStream: chunkSize must be a whole number of 1 or more, got ${chunkSize}.`);
  if (Array.isArray(value) && value.every((chunk) => typeof chunk === 'string'))
    return { kind: 'text', text: value.join(''), chunks: [...value] };
  const text = replyText(value);
  const chunks: string[] = [];
  for (let at = 0; at < text.length; at += chunkSize) chunks.push(text.slice(at, at + chunkSize));
  return { kind: 'text', text, chunks };
}
