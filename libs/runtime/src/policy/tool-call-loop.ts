/**
 * The preset tool-call loop shared by `promptAgent` and `promptChat` (spec §4.3): per step, a
 * validated turn (retrying with feedback up to `maxRetries`), then either the result or a tool
 * batch. On the last allowed step, tool calls are not executed: the loop fails with
 * {@link ToolLoopExceededError}.
 */
import type { Message, TokenUsage } from '@flotilla/ir';
import type { ConversationLog } from '../engine/conversation-log.js';
import { AttemptsExhaustedError, ToolLoopExceededError } from '../errors/policy-errors.js';
import type { OutputSchema } from '../model/model-adapter.js';
import { SETTLED } from '../shared/settled.js';
import type { ToolTurn } from '../tools/tool-call-loop-middleware.js';
import { ContextWindow } from './context-window.js';
import { executeTools } from './execute-tools.js';
import { executeTurn } from './execute-turn.js';
import { validateOutput } from './execute-validation.js';
import type { OutputParser, ParseOutcome } from './output-parser.js';
import type { PromptContext } from './prompt-context.js';

/** Receives the loop's new messages as they happen (for conversation persistence). */
export type LoopMessageSink = (messages: Message[], usage?: TokenUsage) => Promise<void>;

/** What the loop runs on. */
export interface ToolCallLoopOptions<T> {
  runtime: PromptContext;
  /** The conversation before the loop (system, instructions, history …). */
  messages: Message[];
  parser: OutputParser<T>;
  schema?: OutputSchema;
  onMessages?: LoopMessageSink;
  /** The stored conversation the loop extends (`promptChat`), for the context budget's bases. */
  conversationLog?: ConversationLog;
}

/** The loop's result and every message it produced. */
export interface ToolCallLoopResult<T> {
  data: T;
  delta: Message[];
}

/**
 * Runs the loop to a validated result.
 * @throws ToolLoopExceededError, AttemptsExhaustedError, TurnBudgetExceededError, model errors
 */
export function runToolCallLoop<T>(options: ToolCallLoopOptions<T>): Promise<ToolCallLoopResult<T>> {
  // No async layer: each turn is `executeTurn`'s promise and one `.then` that goes on from it
  // (an async function and each `await` cost a promise, each paying the async-context hooks).
  let loop: Loop<T>;
  try {
    loop = openLoop(options);
  } catch (error) {
    return Promise.reject(error);
  }
  return loopStep(loop, 0);
}

/** The state of one loop: what it produced so far and where it reports it. */
interface Loop<T> {
  options: ToolCallLoopOptions<T>;
  /** `equipContextBudget`: fits each prompt and offloads large tool results (context-window.ts). */
  window: ContextWindow | undefined;
  delta: Message[];
  toolTurns: ToolTurn[];
  /** Not async: without a sink (promptAgent, a chat without a conversation) nothing waits. */
  emit: (messages: Message[], usage?: TokenUsage) => Promise<void>;
}

function openLoop<T>(options: ToolCallLoopOptions<T>): Loop<T> {
  const window = ContextWindow.open(options.runtime, options.conversationLog);
  const delta: Message[] = [];
  const emit = (messages: Message[], usage?: TokenUsage): Promise<void> => {
    delta.push(...messages);
    return options.onMessages?.(messages, usage) ?? SETTLED;
  };
  return { options, window, delta, toolTurns: [], emit };
}

/** Step `step` of the loop (from 0): a validated turn, then the result or a tool batch. */
function loopStep<T>(loop: Loop<T>, step: number): Promise<ToolCallLoopResult<T>> {
  const { maxTurnSteps } = loop.options.runtime;
  if (step >= maxTurnSteps) return Promise.reject(new ToolLoopExceededError(maxTurnSteps, maxTurnSteps));
  const turn: TurnAttempts = {
    step,
    conversation: [...loop.options.messages, ...loop.delta],
    retries: [],
    issues: [],
    last: undefined,
  };
  return attemptTurn(loop, turn, 0);
}

/** One step's attempts at a valid answer (retried with feedback up to `maxRetries`). */
interface TurnAttempts {
  step: number;
  conversation: Message[];
  retries: Message[];
  issues: string[];
  last: { failureType: AttemptsExhaustedError['lastFailureType']; data: unknown; text: string } | undefined;
}

function attemptTurn<T>(loop: Loop<T>, turn: TurnAttempts, attempt: number): Promise<ToolCallLoopResult<T>> {
  const { runtime, schema } = loop.options;
  const turnOptions = schema ? { runtime, schema } : { runtime };
  // Without retries the conversation is the prompt (executeTurn copies what it sends anyway).
  const prompt = turn.retries.length === 0 ? turn.conversation : [...turn.conversation, ...turn.retries];
  const { window } = loop;
  const answered = window
    ? window.fit(prompt).then((fitted) => executeTurn(fitted, turnOptions))
    : executeTurn(prompt, turnOptions);
  return answered.then(({ message, usage }) => {
    window?.report(usage);
    if ((message.tool_calls?.length ?? 0) > 0) {
      const emitted = loop.emit([message], usage);
      // Nothing to wait for without a sink: no `.then` (its promise and tick) on the settled one.
      if (emitted === SETTLED) return runTools(loop, turn.step, message);
      return emitted.then(() => runTools(loop, turn.step, message));
    }
    const text = typeof message.content === 'string' ? message.content : '';
    const validating = validateOutput(text, { runtime, parser: loop.options.parser });
    if (!(validating instanceof Promise))
      return validated(loop, turn, attempt, message, usage, text, validating);
    return validating.then((outcome) => validated(loop, turn, attempt, message, usage, text, outcome));
  });
}

/** The result of a valid answer; otherwise the next attempt, with the issues as feedback. */
function validated<T>(
  loop: Loop<T>,
  turn: TurnAttempts,
  attempt: number,
  message: Message,
  usage: TokenUsage,
  text: string,
  outcome: ParseOutcome<T>,
): ToolCallLoopResult<T> | Promise<ToolCallLoopResult<T>> {
  if (outcome.ok) {
    const result = { data: outcome.data, delta: loop.delta };
    const emitted = loop.emit([message], usage);
    return emitted === SETTLED ? result : emitted.then(() => result);
  }
  turn.issues.push(...outcome.issues);
  turn.last = { failureType: outcome.failureType, data: outcome.data, text };
  const feedback: Message = {
    role: 'user',
    content: `Output validation failed:\n${outcome.issues.join('\n')}\nPlease fix the errors above.`,
  };
  turn.retries.push(message, feedback);
  const { maxRetries } = loop.options.runtime;
  return loop.emit([message, feedback], usage).then(() => {
    if (attempt < maxRetries) return attemptTurn(loop, turn, attempt + 1);
    throw new AttemptsExhaustedError({
      attempts: maxRetries + 1,
      issues: turn.issues,
      lastFailureType: turn.last?.failureType ?? 'no_content',
      lastData: turn.last?.data,
      lastRawText: turn.last?.text ?? '',
    });
  });
}

/** Runs the tool calls of `message`, reports their results, and goes on with the next step. */
function runTools<T>(loop: Loop<T>, step: number, message: Message): Promise<ToolCallLoopResult<T>> {
  const { runtime, messages } = loop.options;
  const calls = message.tool_calls ?? [];
  if (step >= runtime.maxTurnSteps - 1)
    return Promise.reject(new ToolLoopExceededError(runtime.maxTurnSteps, step + 1));
  const info = { step: step + 1, messages: [...messages, ...loop.delta], toolTurns: [...loop.toolTurns] };
  const next = (): Promise<ToolCallLoopResult<T>> => {
    loop.toolTurns.push({
      entries: calls.map((call) => ({
        callId: call.id,
        toolName: call.function.name,
        arguments: call.function.arguments,
      })),
    });
    return loopStep(loop, step + 1);
  };
  return executeTools(calls, { runtime, loop: info }).then((results) => {
    const { window } = loop;
    const reported = window
      ? window.offload(results).then((offloaded) => loop.emit(offloaded))
      : loop.emit(results);
    return reported === SETTLED ? next() : reported.then(next);
  });
}
