import { errorGuard, FlotillaError } from '@flotilla/ir';

/**
 * The prompt of a model turn would exceed `equipContextBudget({ maxPromptTokens })` and could
 * not be brought under it: nothing older was left to summarise, or the summariser failed 3
 * times (the circuit breaker, reported by `context-compaction-failed` events). The turn is not
 * sent: an oversized prompt would only fail at the provider.
 */
export class ContextBudgetExceededError extends FlotillaError {
  static override readonly errorName = 'ContextBudgetExceededError';
  static override readonly is = errorGuard(this);
  /** The budget. */
  readonly maxPromptTokens: number;
  /** The prompt tokens after every step that was tried. */
  readonly promptTokens: number;
  /** Failed summaries before giving up (0 when there was nothing to summarise). */
  readonly failedSummaries: number;

  constructor(options: {
    maxPromptTokens: number;
    promptTokens: number;
    failedSummaries: number;
    reason: string;
  }) {
    super(
      `The prompt needs ${options.promptTokens} tokens, over the context budget of ` +
        `${options.maxPromptTokens} (equipContextBudget): ${options.reason}. Raise maxPromptTokens, ` +
        'lower keepRecentTurns, offload large tool output (offloadToolResultsOver) or send less per turn.',
    );
    this.maxPromptTokens = options.maxPromptTokens;
    this.promptTokens = options.promptTokens;
    this.failedSummaries = options.failedSummaries;
  }
}

/** `equipContextBudget` got an option it cannot use; the message names it and what is accepted. */
export class InvalidContextBudgetError extends FlotillaError {
  static override readonly errorName = 'InvalidContextBudgetError';
  static override readonly is = errorGuard(this);
  /** The option, e.g. `maxPromptTokens` or `clear[1]`. */
  readonly option: string;

  constructor(option: string, problem: string) {
    super(`equipContextBudget: ${option} ${problem}.`);
    this.option = option;
  }
}

/** `read_offloaded_output` was asked for an output that is not stored (unknown or expired id). */
export class OffloadedOutputNotFoundError extends FlotillaError {
  static override readonly errorName = 'OffloadedOutputNotFoundError';
  static override readonly is = errorGuard(this);
  readonly outputId: string;

  constructor(outputId: string) {
    super(
      `No offloaded output "${outputId}" is stored (unknown id, or it expired with its conversation). ` +
        'Use an id from an "[… offloaded as output <id> …]" marker of this conversation.',
    );
    this.outputId = outputId;
  }
}

/** Which limit of `equipBudget` a {@link BudgetExceededError} hit. */
export type BudgetLimitKind = 'tokens' | 'cost';

/**
 * A live model call would take the run tree over a usage limit of `equipBudget` (`maxTokens`,
 * `maxCostMicroUsd`, set by this agent or an ancestor, on any worker). The call is not made; the
 * refusal is journaled at the turn's position (a replay throws it again) and the run ends
 * without a retry. `spent` is the whole tree's spend so far, `estimate` what this call's prompt
 * would add (tokens, or micro-USD from the price table).
 */
export class BudgetExceededError extends FlotillaError {
  static override readonly errorName = 'BudgetExceededError';
  static override readonly is = errorGuard(this);
  /** `tokens` (`maxTokens`) or `cost` (`maxCostMicroUsd`). */
  readonly kind: BudgetLimitKind;
  readonly limit: number;
  /** The tree's spend so far (total tokens, or micro-USD). */
  readonly spent: number;
  /** What the refused call's prompt would add (tokens, or micro-USD). */
  readonly estimate: number;
  /** The callPath of the agent invocation whose `equipBudget` set the limit (it covers that invocation and everything under it). */
  readonly setBy: string;
  /** The root run of the tree. */
  readonly rootRunId: string;
  /** For `cost`: the billing unit, `micro_usd`. */
  readonly costUnit: string | undefined;

  constructor(options: {
    kind: BudgetLimitKind;
    limit: number;
    spent: number;
    estimate: number;
    setBy: string;
    rootRunId: string;
  }) {
    const [option, unit] =
      options.kind === 'tokens' ? ['maxTokens', 'tokens'] : ['maxCostMicroUsd', 'micro-USD'];
    super(
      `Usage budget exceeded: ${options.setBy} and everything under it (run tree ${options.rootRunId}) ` +
        `spent ${options.spent} ${unit}, calls in flight included, and the next model call would add about ` +
        `${options.estimate}, over its ${option} ${options.limit} (equipBudget). The call was not made. ` +
        `Raise ${option}, or send shorter prompts.`,
    );
    this.kind = options.kind;
    this.limit = options.limit;
    this.spent = options.spent;
    this.estimate = options.estimate;
    this.setBy = options.setBy;
    this.rootRunId = options.rootRunId;
    this.costUnit = options.kind === 'cost' ? 'micro_usd' : undefined;
  }
}

/** Why a cost value was refused. */
export type InvalidCostReason = 'not_number' | 'not_finite' | 'not_integer' | 'negative';

/**
 * A cost (from a model adapter's `calculateCost`, the price table or `recordToolUsage`) is not
 * a finite, whole, non-negative number of its billing unit (costs are integers, e.g. micro-USD).
 */
export class InvalidCostValueError extends FlotillaError {
  static override readonly errorName = 'InvalidCostValueError';
  static override readonly is = errorGuard(this);
  /** The cost's key, e.g. `micro_usd`. */
  readonly billingUnit: string;
  /** Where it came from, e.g. `calculateCost of openai/gpt-4.1` or `recordToolUsage(search)`. */
  readonly source: string;
  readonly reason: InvalidCostReason;
  /** The refused value, as text. */
  readonly value: string;

  constructor(billingUnit: string, source: string, reason: InvalidCostReason, value: unknown) {
    const problems: Record<InvalidCostReason, string> = {
      not_number: 'is not a number',
      not_finite: 'is not finite',
      not_integer: 'is not a safe integer',
      negative: 'is negative',
    };
    super(
      `The cost "${billingUnit}" from ${source} ${problems[reason]} (${String(value)}). Costs are whole, ` +
        'non-negative numbers of their unit (e.g. micro-USD): round them before returning them.',
    );
    this.billingUnit = billingUnit;
    this.source = source;
    this.reason = reason;
    this.value = String(value);
  }
}

/** `equipBudget` or `recordToolUsage` got an option it cannot use; the message names it and what is accepted. */
export class InvalidBudgetError extends FlotillaError {
  static override readonly errorName = 'InvalidBudgetError';
  static override readonly is = errorGuard(this);
  /** The hook, `equipBudget` or `recordToolUsage`. */
  readonly apiName: string;
  /** The option, e.g. `maxTokens` or `prices["openai/gpt-4.1"].inputMicroUsdPerMillionTokens`. */
  readonly option: string;

  constructor(apiName: string, option: string, problem: string) {
    super(`${apiName}: ${option} ${problem}.`);
    this.apiName = apiName;
    this.option = option;
  }
}
