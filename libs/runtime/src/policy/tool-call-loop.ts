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
import type { OutputParser } from './output-parser.js';
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
export async function runToolCallLoop<T>(options: ToolCallLoopOptions<T>): Promise<ToolCallLoopResult<T>> {
  const { runtime } = options;
  // `equipContextBudget`: fits each prompt and offloads large tool results (context-window.ts).
  const window = ContextWindow.open(runtime, options.conversationLog);
  const delta: Message[] = [];
  const toolTurns: ToolTurn[] = [];
  // Not async: without a sink (promptAgent, a chat without a conversation) nothing waits.
  const emit = (messages: Message[], usage?: TokenUsage): Promise<void> => {
    delta.push(...messages);
    return options.onMessages?.(messages, usage) ?? SETTLED;
  };
  for (let step = 0; step < runtime.maxTurnSteps; step++) {
    const turn = await validatedTurn(options, [...options.messages, ...delta], emit, window);
    if (turn.kind === 'content') return { data: turn.data, delta };
    const calls = turn.message.tool_calls ?? [];
    if (step >= runtime.maxTurnSteps - 1) throw new ToolLoopExceededError(runtime.maxTurnSteps, step + 1);
    const loop = { step: step + 1, messages: [...options.messages, ...delta], toolTurns: [...toolTurns] };
    const results = await executeTools(calls, { runtime, loop });
    await emit(window ? await window.offload(results) : results);
    toolTurns.push({
      entries: calls.map((call) => ({
        callId: call.id,
        toolName: call.function.name,
        arguments: call.function.arguments,
      })),
    });
  }
  throw new ToolLoopExceededError(runtime.maxTurnSteps, runtime.maxTurnSteps);
}

type TurnOutcome<T> = { kind: 'content'; data: T } | { kind: 'tool-calls'; message: Message };

async function validatedTurn<T>(
  options: ToolCallLoopOptions<T>,
  conversation: Message[],
  emit: LoopMessageSink,
  window: ContextWindow | undefined,
): Promise<TurnOutcome<T>> {
  const { runtime, parser } = options;
  const retries: Message[] = [];
  const issues: string[] = [];
  let last:
    | { failureType: AttemptsExhaustedError['lastFailureType']; data: unknown; text: string }
    | undefined;
  for (let attempt = 0; attempt <= runtime.maxRetries; attempt++) {
    const turnOptions = options.schema ? { runtime, schema: options.schema } : { runtime };
    const prompt = [...conversation, ...retries];
    const { message, usage } = await executeTurn(window ? await window.fit(prompt) : prompt, turnOptions);
    window?.report(usage);
    if ((message.tool_calls?.length ?? 0) > 0) {
      const emitted = emit([message], usage);
      if (emitted !== SETTLED) await emitted;
      return { kind: 'tool-calls', message };
    }
    const text = typeof message.content === 'string' ? message.content : '';
    const validating = validateOutput(text, { runtime, parser });
    const outcome = validating instanceof Promise ? await validating : validating;
    if (outcome.ok) {
      const emitted = emit([message], usage);
      // Nothing to wait for without a sink: no await (its promise and tick) on the settled one.
      if (emitted !== SETTLED) await emitted;
      return { kind: 'content', data: outcome.data };
    }
    issues.push(...outcome.issues);
    last = { failureType: outcome.failureType, data: outcome.data, text };
    const feedback: Message = {
      role: 'user',
      content: `Output validation failed:\n${outcome.issues.join('\n')}\nPlease fix the errors above.`,
    };
    retries.push(message, feedback);
    await emit([message, feedback], usage);
  }
  throw new AttemptsExhaustedError({
    attempts: runtime.maxRetries + 1,
    issues,
    lastFailureType: last?.failureType ?? 'no_content',
    lastData: last?.data,
    lastRawText: last?.text ?? '',
  });
}
