import type { MockAction, MockResponder, MockToolCall, MockUsage } from './mock-action.js';
import { replyText } from './mock-action.js';
import type { MockCondition } from './mock-condition.js';
import { streamedText } from './mock-step.js';

/**
 * Configures what a `mock.when(condition)` rule answers. Every method returns the builder, so
 * calls chain in any order: `mock.when({ input: 'hi' }).thenReturn('hello').withUsage({ promptTokens: 3 })`.
 * The last `then*` call wins.
 */
export interface MockRuleBuilder {
  /** Answer with text; a non-string value is sent as its JSON text (for structured output). */
  thenReturn(value: string | object): MockRuleBuilder;
  /** Answer with tool calls (finish reason `tool_calls`). */
  thenCallTools(calls: MockToolCall[]): MockRuleBuilder;
  /** Make `generate` reject with `error` (e.g. a `ModelCallError` to test retries). */
  thenThrow(error: unknown): MockRuleBuilder;
  /** Streams text in these chunks, or a value's text in `chunkSize`-character chunks. @default chunkSize 1 */
  thenStream(chunks: string[] | unknown, chunkSize?: number): MockRuleBuilder;
  /** Provider data on the answer message (the seed's message-level `extra`). */
  withExtra(extra: Record<string, unknown>): MockRuleBuilder;
  /** Compute the answer from the request; a string answer becomes a text response. */
  thenDo(responder: MockResponder): MockRuleBuilder;
  /** Report this usage instead of the default usage. */
  withUsage(usage: MockUsage): MockRuleBuilder;
  /** Answer after `ms` milliseconds (aborting the request ends the wait). @default 0 */
  withDelay(ms: number): MockRuleBuilder;
  /**
   * Use this rule at most `n` times; once spent, it no longer matches and later rules or the
   * default answer. Bounds rules that call tools, so tool loops end.
   * @default unlimited
   */
  times(n: number): MockRuleBuilder;
}

/** A registered rule: its condition, what it does, and how often it may still answer. */
export class MockRule implements MockRuleBuilder {
  readonly condition: MockCondition;
  /** Uses left; spent rules never match again. */
  remaining = Number.POSITIVE_INFINITY;
  private answer: MockAction | undefined;
  private usage: MockUsage | undefined;
  private delayMs: number | undefined;
  private extra: Record<string, unknown> | undefined;

  constructor(condition: MockCondition) {
    this.condition = condition;
  }

  thenReturn(value: string | object): MockRuleBuilder {
    return this.setAnswer({ kind: 'text', text: replyText(value) });
  }

  thenCallTools(calls: MockToolCall[]): MockRuleBuilder {
    return this.setAnswer({ kind: 'tool-calls', calls: [...calls] });
  }

  thenThrow(error: unknown): MockRuleBuilder {
    return this.setAnswer({ kind: 'throw', error });
  }

  thenStream(chunks: string[] | unknown, chunkSize = 1): MockRuleBuilder {
    return this.setAnswer(streamedText(chunks, chunkSize));
  }

  withExtra(extra: Record<string, unknown>): MockRuleBuilder {
    this.extra = { ...extra };
    return this;
  }

  thenDo(responder: MockResponder): MockRuleBuilder {
    return this.setAnswer({ kind: 'respond', responder });
  }

  withUsage(usage: MockUsage): MockRuleBuilder {
    this.usage = { ...usage };
    return this;
  }

  withDelay(ms: number): MockRuleBuilder {
    this.delayMs = ms;
    return this;
  }

  times(n: number): MockRuleBuilder {
    if (!Number.isInteger(n) || n < 0) {
      throw new RangeError(`times(n) needs a whole number of uses >= 0, got ${n}.`);
    }
    this.remaining = n;
    return this;
  }

  /** What the rule does, with its usage and delay; `undefined` until a `then*` method is called. */
  get action(): MockAction | undefined {
    if (!this.answer) return undefined;
    const action: MockAction = { ...this.answer };
    if (this.usage) action.usage = this.usage;
    if (this.delayMs !== undefined) action.delayMs = this.delayMs;
    if (this.extra) action.extra = this.extra;
    return action;
  }

  private setAnswer(answer: MockAction): MockRuleBuilder {
    this.answer = answer;
    return this;
  }
}
