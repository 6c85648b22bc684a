import type { MockAction, MockResponder, MockToolCall, MockUsage } from './mock-action.js';
import { replyText } from './mock-action.js';

/** Latency and usage any sequence step may carry. */
export interface MockStepOptions {
  /** Report this usage instead of the default usage. */
  usage?: MockUsage;
  /** Answer after this many milliseconds. @default 0 */
  delay?: number;
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
  | ({ toolCalls: MockToolCall[] } & MockStepOptions)
  | ({ error: unknown } & MockStepOptions)
  | ({ respond: MockResponder } & MockStepOptions);

/** Compiles a sequence step to the action rules use too. */
export function stepToAction(step: MockStep): MockAction {
  if (typeof step === 'string') return { kind: 'text', text: step };
  const action = stepAnswer(step);
  if (step.usage) action.usage = { ...step.usage };
  if (step.delay !== undefined) action.delayMs = step.delay;
  return action;
}

function stepAnswer(step: Exclude<MockStep, string>): MockAction {
  if ('text' in step) return { kind: 'text', text: step.text };
  if ('json' in step) return { kind: 'text', text: replyText(step.json) };
  if ('toolCalls' in step) return { kind: 'tool-calls', calls: [...step.toolCalls] };
  if ('error' in step) return { kind: 'throw', error: step.error };
  return { kind: 'respond', responder: step.respond };
}
