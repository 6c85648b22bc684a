/**
 * `executeTurn`: one model call of a policy, durable, counted against `maxTurnSteps`, streamed
 * to the generation's `onStream` consumers.
 */
import type { Message, TokenUsage } from '@flotilla/ir';
import type { AgentContext } from '../context/agent-context.js';
import type { AgentStreamEvent } from '../context/agent-stream-event.js';
import { type ModelTurn, modelTurnThen } from '../engine/model-turn.js';
import { DuplicateToolNameError } from '../errors/agent-errors.js';
import { TurnBudgetExceededError } from '../errors/policy-errors.js';
import type {
  ModelDelta,
  ModelRequest,
  ModelResponse,
  OutputSchema,
  ToolChoice,
} from '../model/model-adapter.js';
import { toIrMessages } from './message-input.js';
import type { PromptContext } from './prompt-context.js';
import { checkPromptRuntime } from './prompt-context.js';
import { StructuredStream } from './structured-stream.js';

/** Options of {@link executeTurn}. */
export interface ExecuteTurnOptions {
  runtime: PromptContext;
  /** Structured output the model must produce. */
  schema?: OutputSchema;
  toolChoice?: ToolChoice;
}

/** The answer of one turn. */
export interface TurnResult {
  message: Message & { role: 'assistant' };
  usage: TokenUsage;
  finishReason: ModelResponse['finishReason'];
  /** True when the journal answered and no model was called. */
  replayed: boolean;
}

/**
 * Calls the model once with `messages` and the runtime's tools.
 * @throws InvalidPromptRuntimeError for a runtime that is not the active policy's
 * @throws DuplicateToolNameError when two runtime tools share a name
 * @throws TurnBudgetExceededError when the generation already used `maxTurnSteps` turns
 * @throws the model's error (e.g. ModelCallError), which is never retried here
 */
export function executeTurn(messages: Message[], options: ExecuteTurnOptions): Promise<TurnResult> {
  // Not async: the model turn's promise and one `.then` (an async layer costs two promises).
  let turn: StartedTurn;
  try {
    turn = startTurn(messages, options);
  } catch (error) {
    return Promise.reject(error);
  }
  const { context, stream, structured } = turn;
  const failed = (error: unknown): never => {
    const { name, message } = error instanceof Error ? error : new Error(String(error));
    stream?.({ type: 'error', error: { name, message } });
    // A call cut short by cancellation fails as AbortError, whatever the adapter rejected with (seed §3.1).
    context.throwIfAborted();
    throw error;
  };
  // The stream's events ride in the model turn's own `.then` (`failed` also hears their throws).
  return modelTurnThen<TurnResult>(
    context,
    turn.modelTurn,
    ({ value, replayed }) => {
      structured?.finish(value.message);
      if (stream) {
        for (const toolCall of value.message.tool_calls ?? []) stream({ type: 'tool-call', toolCall });
        if (!replayed) stream({ type: 'usage', usage: value.usage });
        stream({ type: 'turn-end', finishReason: value.finishReason.unified, replayed });
      }
      return { message: value.message, usage: value.usage, finishReason: value.finishReason, replayed };
    },
    failed,
  );
}

/** A turn set up and announced (`turn-start`), its model call still to make. */
interface StartedTurn {
  context: AgentContext;
  modelTurn: ModelTurn;
  /** Pushes an event to the generation's `onStream` consumers; `undefined` when it has none. */
  stream: TurnStream | undefined;
  structured: StructuredStream | undefined;
}

/** Checks the call, reserves its turn step and announces it; everything before the model call. */
function startTurn(messages: Message[], options: ExecuteTurnOptions): StartedTurn {
  const context = checkPromptRuntime('executeTurn', options?.runtime);
  const { runtime } = options;
  // User code may hand over stored history in the seed's format: checked and converted once here.
  const request: ModelRequest = { messages: toIrMessages(messages, 'executeTurn') };
  assertUniqueToolNames(runtime, 'executeTurn');
  const { draft } = context;
  // Reserved before awaiting, so parallel turns share the budget.
  if (draft.turnSteps >= runtime.maxTurnSteps)
    throw new TurnBudgetExceededError(runtime.maxTurnSteps, draft.turnSteps);
  const turnIndex = draft.turnSteps++;
  // Consumers are fixed once the policy started: without any, no event is even built.
  const stream: TurnStream | undefined =
    draft.streamConsumers.length === 0
      ? undefined
      : (event) => pushStream(context, { ...event, turnIndex } as AgentStreamEvent);
  stream?.({ type: 'turn-start' });
  if (runtime.tools.length > 0) request.tools = runtime.tools.map((tool) => tool.ir);
  if (options.schema) request.schema = options.schema;
  if (options.toolChoice) request.toolChoice = options.toolChoice;
  const structured = stream ? new StructuredStream(options.schema?.jsonSchema, stream) : undefined;
  if (structured)
    request.onDelta = (delta) => {
      stream?.(deltaEvent(delta));
      if (delta.type === 'text-delta') structured.text(delta.text);
    };
  // The agent's signal set here, last (where the copy that added it put it): the model call then
  // sends this request as it is.
  request.signal = context.signal;
  const modelTurn: ModelTurn = {
    turnIndex,
    model: runtime.model,
    request,
    prompt: [...runtime.system, ...runtime.instruction],
  };
  return { context, modelTurn, stream, structured };
}

/** @throws DuplicateToolNameError naming `site` when two runtime tools share a name */
export function assertUniqueToolNames(runtime: PromptContext, site: string): void {
  if (runtime.tools.length < 2) return;
  const seen = new Set<string>();
  for (const tool of runtime.tools) {
    if (seen.has(tool.ir.name)) throw new DuplicateToolNameError(tool.ir.name, site);
    seen.add(tool.ir.name);
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A turn's stream: its events without the turn index, which it adds. */
type TurnStream = (event: DistributiveOmit<AgentStreamEvent, 'turnIndex'>) => void;

function deltaEvent(delta: ModelDelta): DistributiveOmit<AgentStreamEvent, 'turnIndex'> {
  switch (delta.type) {
    case 'text-delta':
      return { type: 'text-delta', delta: delta.text };
    case 'reasoning-delta':
      return { type: 'reasoning-delta', delta: delta.text };
    case 'tool-call-delta': {
      const { type: _type, ...rest } = delta;
      return { type: 'tool-call-delta', ...rest };
    }
  }
}

function pushStream(context: AgentContext, event: AgentStreamEvent): void {
  for (const consumer of context.draft.streamConsumers) consumer.push(event);
}
