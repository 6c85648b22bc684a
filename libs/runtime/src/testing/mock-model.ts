import type { TokenUsage } from '@flotilla/ir';
import type { ModelAdapter, ModelRequest, ModelResponse } from '../model/model-adapter.js';
import type { MockAction, MockUsage } from './mock-action.js';
import { performAction, replyText } from './mock-action.js';
import type { MockCalls } from './mock-call-log.js';
import { DEFAULT_MOCK_CALL_LIMIT, MockCallLog } from './mock-call-log.js';
import type { MockCondition } from './mock-condition.js';
import { lastUserText, matchesCondition } from './mock-condition.js';
import { MockModelNoRuleError } from './mock-model-no-rule-error.js';
import type { MockRuleBuilder } from './mock-rule-builder.js';
import { MockRule } from './mock-rule-builder.js';
import type { MockStep } from './mock-step.js';
import { stepToAction } from './mock-step.js';
import { streamResponseDeltas } from './stream-response-deltas.js';

/** Options of {@link createMockModel}. */
export interface MockModelOptions {
  /** The adapter id recorded in events and conversation headers. @default 'mock-model' */
  id?: string;
  /**
   * Which requests `calls` keeps: the newest `limit`, or none with `false` (`calls.count` still
   * counts them). Bounded so a mock used as a no-key model in a long-running worker does not
   * grow. @default { limit: 500 }
   */
  record?: false | { limit: number };
}

/**
 * A scripted {@link ModelAdapter} for tests (provider `mock`). Each call is answered by, in
 * order: the next unused {@link MockModel.sequence} step; the first registered rule whose
 * condition matches and that has uses left; the default response; otherwise `generate`
 * rejects with {@link MockModelNoRuleError}. Responses always carry a finish reason
 * (`tool_calls` when the answer calls tools, else `stop`); with `onDelta` the answer is also
 * streamed as deltas before `generate` resolves.
 */
export interface MockModel extends ModelAdapter {
  /** Registers a rule; rules are checked in registration order and are not consumed (see `times`). */
  when(condition: MockCondition): MockRuleBuilder;
  /** Queues answers used one per call, in order, before any rule; calling again appends. */
  sequence(steps: MockStep[]): MockModel;
  /** The answer when nothing else matches; a non-string value is sent as JSON text. */
  setDefaultResponse(value: string | object): MockModel;
  /** Usage reported by answers without their own usage. @default zero tokens */
  setDefaultUsage(usage: MockUsage): MockModel;
  /** Usage of the sequence's steps by position (a step's own `usage` wins). */
  setSequenceUsage(usages: MockUsage[]): MockModel;
  /** Delay of every sequence step without its own. */
  setSequenceDelay(ms: number): MockModel;
  /** Delay of every answer without its own. */
  setDefaultDelay(ms: number): MockModel;
  /** How a call's usage is priced (the seed adapter's `calculateCost`). @default 0.001 USD / 1k tokens in `micro_usd` */
  setCostCalculator(calculate: (usage: TokenUsage) => Record<string, number>): MockModel;
  /** The cost of `usage` by the current calculator. */
  calculateCost(usage: TokenUsage): Record<string, number>;
  /** The mock itself, for code written as `mock.adapter`. */
  readonly adapter: MockModel;
  /** The calls received, oldest first: the newest `record.limit` are kept. */
  readonly calls: MockCalls;
  /** Forgets rules, queued steps, defaults and recorded calls. */
  reset(): void;
}

/**
 * Creates a {@link MockModel}. Pass it wherever a model adapter goes
 * (`createAgent({ model: mock })`, a worker's `models` map). A new mock answers nothing: script
 * it with `when`, `sequence` or `setDefaultResponse` first, or its calls reject with
 * {@link MockModelNoRuleError}. Guide with runnable examples: `docs/testing.md`.
 *
 * @example
 * const mock = createMockModel();
 * mock.when({ toolName: 'weather' }).thenCallTools([{ name: 'weather', arguments: { city: 'Oslo' } }]).times(1);
 * mock.setDefaultResponse({ answer: 'sunny' });
 */
export function createMockModel(options: MockModelOptions = {}): MockModel {
  return new ScriptedMockModel(options.id ?? 'mock-model', recordLimit(options.record));
}

/**
 * The number of calls to keep.
 * @throws RangeError when `record.limit` is not a whole number, 0 or more
 */
function recordLimit(record: MockModelOptions['record']): number {
  if (record === false) return 0;
  if (record === undefined) return DEFAULT_MOCK_CALL_LIMIT;
  if (!Number.isSafeInteger(record.limit) || record.limit < 0)
    throw new RangeError(
      `createMockModel: record.limit must be a whole number, 0 or more (got ${record.limit}); pass record: false to keep no calls.`,
    );
  return record.limit;
}

class ScriptedMockModel implements MockModel {
  readonly provider = 'mock';
  readonly id: string;
  private readonly log: MockCallLog;
  private rules: MockRule[] = [];
  private queue: MockAction[] = [];
  private sequenceIndex = 0;
  private sequenceUsage: MockUsage[] = [];
  private sequenceDelayMs: number | undefined;
  private defaultDelayMs: number | undefined;
  private costCalculator: (usage: TokenUsage) => Record<string, number> = defaultCost;
  private defaultResponse: MockAction | undefined;
  private defaultUsage: MockUsage | undefined;

  constructor(id: string, recordLimit: number) {
    this.id = id;
    this.log = new MockCallLog(recordLimit);
  }

  get calls(): MockCalls {
    return this.log;
  }

  when(condition: MockCondition): MockRuleBuilder {
    const rule = new MockRule(condition);
    this.rules.push(rule);
    return rule;
  }

  sequence(steps: MockStep[]): MockModel {
    // As in the seed API: a new sequence replaces what is left of the previous one.
    this.queue = steps.map(stepToAction);
    this.sequenceIndex = 0;
    return this;
  }

  setSequenceUsage(usages: MockUsage[]): MockModel {
    this.sequenceUsage = usages.map((usage) => ({ ...usage }));
    return this;
  }

  setSequenceDelay(ms: number): MockModel {
    this.sequenceDelayMs = checkDelay('setSequenceDelay', ms);
    return this;
  }

  setDefaultDelay(ms: number): MockModel {
    this.defaultDelayMs = checkDelay('setDefaultDelay', ms);
    return this;
  }

  setCostCalculator(calculate: (usage: TokenUsage) => Record<string, number>): MockModel {
    this.costCalculator = calculate;
    return this;
  }

  calculateCost(usage: TokenUsage): Record<string, number> {
    return this.costCalculator(usage);
  }

  /** The mock itself: it is the adapter (the seed API reaches it as `mock.adapter`). */
  get adapter(): MockModel {
    return this;
  }

  setDefaultResponse(value: string | object): MockModel {
    this.defaultResponse = { kind: 'text', text: replyText(value) };
    return this;
  }

  setDefaultUsage(usage: MockUsage): MockModel {
    this.defaultUsage = { ...usage };
    return this;
  }

  reset(): void {
    this.rules = [];
    this.queue = [];
    this.sequenceIndex = 0;
    this.sequenceUsage = [];
    this.sequenceDelayMs = undefined;
    this.defaultDelayMs = undefined;
    this.costCalculator = defaultCost;
    this.defaultResponse = undefined;
    this.defaultUsage = undefined;
    this.log.clear();
  }

  async generate(request: ModelRequest): Promise<ModelResponse> {
    // An already-cancelled request never reaches the model, so it is not recorded either.
    request.signal?.throwIfAborted();
    const call = this.log.record(request);
    const action = this.pickAction(request);
    const response = await performAction(action, request, {
      callIndex: call.index,
      defaultUsage: this.defaultUsage,
      defaultDelayMs: this.defaultDelayMs,
    });
    if (request.onDelta) {
      const chunks = action.kind === 'text' ? action.chunks : undefined;
      if (chunks) for (const text of chunks) request.onDelta({ type: 'text-delta', text });
      else streamResponseDeltas(response, request.onDelta);
    }
    return response;
  }

  private pickAction(request: ModelRequest): MockAction {
    const step = this.queue.shift();
    if (step) return this.sequenceStep(step);
    const rule = this.rules.find(
      (candidate) =>
        candidate.remaining > 0 &&
        candidate.action !== undefined &&
        matchesCondition(candidate.condition, request),
    );
    if (rule?.action) {
      rule.remaining -= 1;
      return rule.action;
    }
    if (this.defaultResponse) return this.defaultResponse;
    throw new MockModelNoRuleError(lastUserText(request.messages));
  }

  /** A sequence step with the sequence-wide usage (by position) and delay unless it has its own. */
  private sequenceStep(step: MockAction): MockAction {
    const index = this.sequenceIndex++;
    const usage = step.usage ?? this.sequenceUsage[index];
    const delayMs = step.delayMs ?? this.sequenceDelayMs;
    return {
      ...step,
      ...(usage ? { usage } : {}),
      ...(delayMs === undefined ? {} : { delayMs }),
    };
  }
}

/** The seed's default price: 0.001 USD per 1,000 tokens, in micro-USD (`{}` for no tokens). */
function defaultCost(usage: TokenUsage): Record<string, number> {
  if (usage.totalTokens === 0) return {};
  return { micro_usd: Math.round(((usage.totalTokens * 0.001) / 1000) * 1e6) };
}

function checkDelay(method: string, ms: number): number {
  if (Number.isFinite(ms) && ms >= 0) return ms;
  throw new RangeError(`${method}(ms) needs a number of milliseconds >= 0, got ${ms}.`);
}
