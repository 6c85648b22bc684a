import { addUsage, type Message, type TokenUsage } from '@flotilla/ir';
import type { z } from 'zod';
import type { AgentContext } from '../context/agent-context.js';
import { ConversationLog, type TurnDetails } from '../engine/conversation-log.js';
import { SETTLED } from '../shared/settled.js';
import { zodToJsonSchema } from '../tools/zod-to-json-schema.js';
import { createAgentPolicy } from './create-agent-policy.js';
import { createJsonOutputParser } from './json-output-parser.js';
import { toIrMessages } from './message-input.js';
import type { OutputParser } from './output-parser.js';
import { textOutputParser } from './output-parser.js';
import type { PromptContext } from './prompt-context.js';
import { agentContextOf } from './prompt-context.js';
import type { LoopMessageSink, ToolCallLoopOptions } from './tool-call-loop.js';
import { runToolCallLoop } from './tool-call-loop.js';
import { assertValidHistory } from './validate-history.js';

/** Options of {@link promptChat}. */
export interface PromptChatOptions<S extends z.ZodType | undefined = undefined> {
  /** Messages after the system prompts and instructions (a string is one user message). */
  message?: string | Message | Message[];
  /** Parse the final answer as JSON with this schema; without it the answer is the text. */
  schema?: S;
}

/** What {@link promptChat} returns: the answer and every message this call produced. */
export interface PromptChatResult<T> {
  data: T;
  delta: Message[];
}

const promptChatPolicy = createAgentPolicy({
  policyId: 'promptChat',
  // Not async: without a stored conversation the loop's own promise is the answer.
  handler: (runtime, options: PromptChatOptions<z.ZodType | undefined>) => {
    const context = agentContextOf(runtime);
    const opening = openConversation(context);
    if (opening) return opening.then((log) => chatInConversation(runtime, options, log));
    const input = toMessages(options.message);
    return runToolCallLoop(chatLoop(runtime, options, [...runtime.messages, ...input]));
  },
});

/** The loop of a chat over `messages` (the answer is text, or JSON of the options' schema). */
function chatLoop(
  runtime: PromptContext,
  options: PromptChatOptions<z.ZodType | undefined>,
  messages: Message[],
): ToolCallLoopOptions<unknown> {
  assertValidHistory(messages);
  const parser: OutputParser<unknown> = options.schema
    ? createJsonOutputParser(options.schema)
    : textOutputParser;
  if (!options.schema) return { runtime, messages, parser };
  const schema = { name: 'result', jsonSchema: zodToJsonSchema(options.schema, 'promptChat') };
  return { runtime, messages, parser, schema };
}

/** A chat in the run's stored conversation: its history first, then the whole turn appended. */
async function chatInConversation(
  runtime: PromptContext,
  options: PromptChatOptions<z.ZodType | undefined>,
  log: ConversationLog,
): Promise<PromptChatResult<unknown>> {
  const input = toMessages(options.message);
  const loop = chatLoop(runtime, options, runtime.messages.concat(log.history, input));
  // The input array is this call's own (toMessages builds it): the turn grows it.
  const turn = new Turn(input);
  const { services } = agentContextOf(runtime).run;
  const stored = services.unfinishedTurns?.open(() =>
    log.closeUnfinishedTurn(turn.messages, turn.details(runtime)),
  );
  // The loop's options are this call's own object: set, not spread into another.
  loop.onMessages = turn.collect;
  loop.conversationLog = log;
  const result = await runToolCallLoop(loop);
  await log.appendTurn(turn.messages, turn.details(runtime));
  stored?.();
  return result;
}

/**
 * Chat with the model: system prompts, instructions, then `options.message`; runs the tool
 * loop and returns `{ data, delta }` (`data` is the text, or the parsed value with a schema).
 * In a run with a `conversationId`, the root agent's promptChat first loads the stored history,
 * then appends the whole turn (the user message, each model turn and tool batch, the answer) as
 * one version once it is complete. On a worker, a turn whose run ends failed or cancelled is
 * stored closed (unanswered tool calls get a placeholder result) when the run ends — not at
 * the failure of an attempt that is retried, and not at all after another run's
 * `onConflict: 'rollback'`.
 * @throws PromptAgentAlreadyCalledError, ModelNotFoundError, InvalidMessageHistoryError,
 *   AttemptsExhaustedError, ToolLoopExceededError, model errors
 */
export function promptChat(options?: {
  message?: string | Message | Message[];
}): Promise<PromptChatResult<string>>;
export function promptChat<S extends z.ZodType>(options: {
  message?: string | Message | Message[];
  schema: S;
}): Promise<PromptChatResult<z.infer<S>>>;
export function promptChat(
  options: PromptChatOptions<z.ZodType | undefined> = {},
): Promise<PromptChatResult<unknown>> {
  // Not async: the policy's own promise is the answer (an async wrapper adds three).
  return promptChatPolicy(options);
}

/** `undefined` at once (no promise) when the call speaks for no stored conversation. */
function openConversation(context: AgentContext): Promise<ConversationLog> | undefined {
  const conversationId = context.run.services.conversationId;
  // Only the run's root agent speaks for the stored conversation; children chat privately.
  if (conversationId === undefined || context.parent) return undefined;
  return ConversationLog.open(context, conversationId);
}

/** The messages of the turn in progress and their usage, collected from the tool-call loop. */
class Turn {
  readonly messages: Message[];
  #usage: TokenUsage | undefined;
  #lastPromptTokens: number | undefined;

  constructor(input: Message[]) {
    this.messages = input;
  }

  readonly collect: LoopMessageSink = (messages, usage) => {
    this.messages.push(...messages);
    if (usage) this.#usage = this.#usage ? addUsage(this.#usage, usage) : usage;
    if (usage) this.#lastPromptTokens = usage.promptTokens;
    return SETTLED;
  };

  details(runtime: PromptContext): TurnDetails {
    // Field by field: no throwaway object per optional field.
    const details: TurnDetails = { system: runtime.system, model: runtime.model };
    if (this.#usage) details.usage = this.#usage;
    if (this.#lastPromptTokens !== undefined) details.lastPromptTokens = this.#lastPromptTokens;
    return details;
  }
}

/** The user's messages in the IR (the seed's message format is converted; anything else refused). */
function toMessages(message: PromptChatOptions['message']): Message[] {
  if (message === undefined) return [];
  if (typeof message === 'string') return [{ role: 'user', content: message }];
  return toIrMessages(Array.isArray(message) ? message : [message], 'promptChat.message');
}
