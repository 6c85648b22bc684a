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
