import { errorGuard, FlotillaError } from '@flotilla/ir';

/** Why the last validation attempt failed. */
export type ValidationFailureType = 'no_content' | 'parse_error' | 'schema' | 'validator';

/** The model's answer failed validation on every attempt (`maxRetries + 1` of them). */
export class AttemptsExhaustedError extends FlotillaError {
  static override readonly errorName = 'AttemptsExhaustedError';
  static override readonly is = errorGuard(this);
  readonly attempts: number;
  /** Every validation problem, across all attempts. */
  readonly issues: string[];
  readonly lastFailureType: ValidationFailureType;
  readonly lastData: unknown;
  readonly lastRawText: string;

  constructor(options: {
    attempts: number;
    issues: string[];
    lastFailureType: ValidationFailureType;
    lastData: unknown;
    lastRawText: string;
  }) {
    super(
      `All attempts exhausted (${options.attempts} attempts). ${options.issues.length} issues found. ` +
        `Last failure (${options.lastFailureType}): ${options.issues.at(-1) ?? 'unknown'}. ` +
        'Raise maxRetries or make the schema / instructions easier to satisfy.',
    );
    this.attempts = options.attempts;
    this.issues = options.issues;
    this.lastFailureType = options.lastFailureType;
    this.lastData = options.lastData;
    this.lastRawText = options.lastRawText;
  }
}

/** Messages handed to a policy break the history rules (e.g. a tool result without its call). */
export class InvalidMessageHistoryError extends FlotillaError {
  static override readonly errorName = 'InvalidMessageHistoryError';
  static override readonly is = errorGuard(this);
  /** Index of the offending message in the list the policy built. */
  readonly index: number;
  /** Where in the given messages the bad field is (`promptChat[2].tool_calls[0].name`), when one is. */
  readonly path?: string;

  constructor(index: number, reason: string, path?: string) {
    super(`Invalid message history at index ${index}: ${reason}`);
    this.index = index;
    if (path !== undefined) this.path = path;
  }
}

/** Why a policy primitive refused its runtime. */
export type InvalidPromptRuntimeReason = 'missing' | 'unsealed' | 'expired' | 'foreign';

/**
 * A policy primitive (`executeTurn`, `executeTools`, `executeValidation`) was given a runtime
 * that is not the active policy's: none, a hand-built object, one kept after its policy
 * returned, or one from another agent or generation.
 */
export class InvalidPromptRuntimeError extends FlotillaError {
  static override readonly errorName = 'InvalidPromptRuntimeError';
  static override readonly is = errorGuard(this);
  readonly apiName: string;
  readonly reason: InvalidPromptRuntimeReason;

  constructor(apiName: string, reason: InvalidPromptRuntimeReason) {
    super(
      `${apiName} was given an invalid prompt runtime (${reason}). Pass the PromptContext your policy handler ` +
        'received (or a spread copy / fork of it), and only while that handler is running.',
    );
    this.apiName = apiName;
    this.reason = reason;
  }
}

/**
 * A tool handler returned something that is not JSON (undefined, a function, a Date, a cycle …).
 * In the tool loop it becomes the tool message the model sees; `callTool` throws it.
 */
export class InvalidToolOutputError extends FlotillaError {
  static override readonly errorName = 'InvalidToolOutputError';
  static override readonly is = errorGuard(this);
  readonly toolName: string;
  /** Where in the output the bad value sits; `(root)` for the output itself. */
  readonly path: string;
  readonly reason: string;

  constructor(toolName: string, path: string, reason: string) {
    super(
      `Tool "${toolName}" returned an invalid output at "${path}". Reason: ${reason}. Tool handlers must ` +
        'return a JSON-serializable value (string, finite number, boolean, null, plain object, array) or toolContent([...]).',
    );
    this.toolName = toolName;
    this.path = path;
    this.reason = reason;
  }
}

/** A tool-call-loop middleware returned no output for some of the model's tool calls. */
export class LoopMissingToolOutputError extends FlotillaError {
  static override readonly errorName = 'LoopMissingToolOutputError';
  static override readonly is = errorGuard(this);
  readonly missingCallIds: string[];

  constructor(missingCallIds: string[]) {
    super(
      `ToolCallLoopMiddleware returned incomplete ToolOutput[]: missing result for tool_call_id(s): ${missingCallIds.join(', ')}. ` +
        'Answer blocked calls with a synthetic output merged with the result of next(...).',
    );
    this.missingCallIds = missingCallIds;
  }
}

/**
 * The preset tool loop did not converge: the model still asked for tools on the last allowed
 * turn (those tools are not executed).
 */
export class ToolLoopExceededError extends FlotillaError {
  static override readonly errorName = 'ToolLoopExceededError';
  static override readonly is = errorGuard(this);
  readonly maxTurnSteps: number;
  readonly actualTurns: number;

  constructor(maxTurnSteps: number, actualTurns: number) {
    super(
      `Prompt loop exceeded: ${actualTurns} model turn(s), max allowed is ${maxTurnSteps}, and the model still ` +
        'asked for tools. Raise createAgent({ maxTurnSteps }) or tell the model when to stop calling tools.',
    );
    this.maxTurnSteps = maxTurnSteps;
    this.actualTurns = actualTurns;
  }
}

/** The engine guard: a generation asked for more model turns than `maxTurnSteps`. */
export class TurnBudgetExceededError extends FlotillaError {
  static override readonly errorName = 'TurnBudgetExceededError';
  static override readonly is = errorGuard(this);
  readonly maxTurnSteps: number;
  readonly actualTurns: number;

  constructor(maxTurnSteps: number, actualTurns: number) {
    super(
      `Turn budget exceeded: this generation already made ${actualTurns} model turn(s), max allowed is ${maxTurnSteps}. ` +
        'Raise createAgent({ maxTurnSteps }) or split the work with reborn() or child agents.',
    );
    this.maxTurnSteps = maxTurnSteps;
    this.actualTurns = actualTurns;
  }
}

/**
 * A tool call took longer than its `timeoutMs` (tool definition or `equipTool` option). The
 * model sees it as the tool's error and may try again; the tool's signal is aborted.
 */
export class ToolTimeoutError extends FlotillaError {
  static override readonly errorName = 'ToolTimeoutError';
  static override readonly is = errorGuard(this);
  readonly toolName: string;
  readonly timeoutMs: number;

  constructor(toolName: string, timeoutMs: number) {
    super(
      `Tool "${toolName}" did not finish within ${timeoutMs} ms and was abandoned. Raise its \`timeoutMs\`, ` +
        'or make the tool return sooner.',
    );
    this.toolName = toolName;
    this.timeoutMs = timeoutMs;
  }
}

/** `callTool` was given arguments its tool's schema refuses (or that are not JSON). */
export class InvalidToolArgumentsError extends FlotillaError {
  static override readonly errorName = 'InvalidToolArgumentsError';
  static override readonly is = errorGuard(this);
  readonly toolName: string;
  /** One line per problem: `<path>: <message>`. */
  readonly issues: string[];

  constructor(toolName: string, issues: string[]) {
    super(
      `Invalid arguments for tool "${toolName}": ${issues.join('; ')}. Pass arguments its parameters schema accepts.`,
    );
    this.toolName = toolName;
    this.issues = issues;
  }
}
