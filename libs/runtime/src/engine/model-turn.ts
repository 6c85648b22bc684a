/**
 * Durable model turns. The assistant message, usage and finish reason of each turn are
 * journaled at `<generation>/model:<n>`; a replay returns them without calling the model.
 *
 * The fingerprint (format `model-turn/v2`) covers what the code decides about the turn, part by
 * part, so a mismatch names what changed: `position` (callPath, turn index), `model` (provider
 * and id), `tools` (the names offered, sorted), `prompt` (role and content of the generation's
 * system and instruction messages) and `output` (the structured-output schema). Not the rest of
 * the messages: history and tool results may legitimately hold non-deterministic text, and they
 * come from the journal anyway. Turns recorded in the first format (`model-turn:<hash of
 * callPath, turn index>`) are compared with that format, so their journals still replay.
 */
import { channel } from 'node:diagnostics_channel';
import type { Message } from '@flotilla/ir';
import type { AgentContext } from '../context/agent-context.js';
import { BudgetExceededError } from '../errors/budget-errors.js';
import { DEFAULT_JSON_LIMITS } from '../json/json-bounds.js';
import type { BudgetWait } from '../limits/await-model-budget.js';
import type { CallBudget } from '../limits/fleet-model-budgets.js';
import { type CheckedModelResponse, checkModelResponseText } from '../model/check-model-response.js';
import type { ModelAdapter, ModelRequest, ModelResponse } from '../model/model-adapter.js';
import { ModelCallError } from '../model/model-call-error.js';
import { ObservationChannel, observeModelCall } from '../shared/observation-channels.js';
import { SpanAttribute } from '../shared/tracing.js';
import type { UsageStats } from '../usage/usage-stats.js';
import type { DurableResult } from './durable-step.js';
import { durableStep } from './durable-step.js';
import { hashJson, partedFingerprint } from './fingerprint.js';
import { suspendUntil } from './suspend-until.js';
import { type CallAnswer, callWithinUsageBudgetThen, replayModelUsage } from './usage-budget.js';

/** One model turn to serve. */
export interface ModelTurn {
  turnIndex: number;
  model: ModelAdapter;
  request: ModelRequest;
  /** The prompt the code set up: the generation's system and instruction messages. @default none */
  prompt?: readonly Message[];
}

/** The current format of model turn fingerprints. */
export const MODEL_TURN_FINGERPRINT_FORMAT = 'model-turn/v2';

/** The fingerprints of a model turn: the current one, then the first format's. */
export function modelTurnFingerprints(callPath: string, turn: ModelTurn): [string, string] {
  return [modelTurnFingerprint(callPath, turn), firstFormatFingerprint(callPath, turn.turnIndex)];
}

/** The fingerprint of a model turn in the current format. */
function modelTurnFingerprint(callPath: string, turn: ModelTurn): string {
  return partedFingerprint(MODEL_TURN_FINGERPRINT_FORMAT, {
    position: [callPath, turn.turnIndex],
    model: [turn.model.provider, turn.model.id],
    tools: (turn.request.tools ?? []).map((tool) => tool.name).sort(),
    prompt: (turn.prompt ?? []).map((message) => [message.role, message.content]),
    output: turn.request.schema ?? null,
  });
}

/** The first format's fingerprint: read only on a replay of a turn recorded in it. */
function firstFormatFingerprint(callPath: string, turnIndex: number): string {
  return `model-turn:${hashJson([callPath, turnIndex])}`;
}

/**
 * Serves a model turn from the journal or calls the model, checks its answer
 * (`model/check-model-response.ts`) and records it. Model failures (and refused answers) are
 * not recorded, so a retried run calls the model again.
 */
export function modelTurnDurably(
  context: AgentContext,
  turn: ModelTurn,
): Promise<DurableResult<ModelResponse>> {
  return modelTurnThen(context, turn, (result) => result);
}

/**
 * {@link modelTurnDurably}, with the caller's own work on its result (`then`) and on its failure
 * (`failed`, also for a throw of `then`) in the same `.then` as the turn's end event: the caller
 * needs no promise of its own. Not async.
 */
export function modelTurnThen<R>(
  context: AgentContext,
  turn: ModelTurn,
  then: (result: DurableResult<ModelResponse>) => R,
  failed: (error: unknown) => R = (error) => {
    throw error;
  },
): Promise<R> {
  let step: Promise<DurableResult<ModelResponse>>;
  // Taken before the step's first promise: parallel turns keep their order.
  const base: ModelTurnBase = {
    callPath: context.callPath,
    position: context.nextPosition('model'),
    turnIndex: turn.turnIndex,
  };
  try {
    step = modelTurnStep(context, turn, base);
  } catch (error) {
    step = Promise.reject(error);
  }
  return step.then((result) => {
    try {
      const { usage, finishReason } = result.value;
      const { callPath, position, turnIndex } = base;
      const { replayed } = result;
      context.run.emit({
        type: 'model-turn-end',
        callPath,
        position,
        turnIndex,
        usage,
        finishReason,
        replayed,
      });
      return then(result);
    } catch (error) {
      return failed(error);
    }
  }, failed);
}

/** What the start and end events of a model turn share. */
interface ModelTurnBase {
  callPath: string;
  position: string;
  turnIndex: number;
}

function modelTurnStep(
  context: AgentContext,
  turn: ModelTurn,
  base: ModelTurnBase,
): Promise<DurableResult<ModelResponse>> {
  const { run } = context;
  // Fields written out, in the order a spread of `base` gave them (a spread after `type` is a slow copy).
  const { callPath, position, turnIndex } = base;
  const { id: modelId, provider } = turn.model;
  run.emit({ type: 'model-turn-start', callPath, position, turnIndex, modelId, provider });
  const fingerprint = modelTurnFingerprint(context.callPath, turn);
  const spent: { stats?: UsageStats } = {};
  const checked: { answer?: CheckedModelResponse } = {};
  return durableStep<ModelResponse>(context, {
    kind: 'model-turn',
    position,
    fingerprint,
    // Read on a replay only (functions, not values or getters: a live turn makes neither, and a
    // literal with getters is built the slow way).
    olderFingerprints: () => [firstFormatFingerprint(context.callPath, turn.turnIndex)],
    // The OpenTelemetry GenAI semantic conventions: `chat <model>` with the system and usage.
    span: () => {
      return {
        name: `chat ${turn.model.id}`,
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.system': turn.model.provider,
          'gen_ai.request.model': turn.model.id,
          [SpanAttribute.agentId]: context.definition.id,
        },
        describe: (response: ModelResponse) => ({
          'gen_ai.usage.input_tokens': response.usage.promptTokens,
          'gen_ai.usage.output_tokens': response.usage.completionTokens,
          'gen_ai.response.finish_reasons': [response.finishReason.raw ?? response.finishReason.unified],
        }),
      };
    },
    // The answer is an outside value: checked before it is journaled or read (a replay reads a checked one).
    // Within the usage budget: a refusal is journaled, so a replay refuses it too.
    execute: () => {
      const call = modelCall(context, turn, checked);
      return callWithinUsageBudgetThen(context, turn.model, turn.request, call.generate, call, spent);
    },
    // The check wrote the answer's JSON: the journal stores that text.
    jsonText: (response) => (checked.answer?.response === response ? checked.answer.text : undefined),
    // …and, for a plain answer, copied it as it reads back from that text.
    readBack: (response) => (checked.answer?.response === response ? checked.answer.copy : undefined),
    recordFailure: (error) => BudgetExceededError.is(error),
    // A lost answer is asked again on replay; the next effect that must not run twice waits for it.
    deferRecord: true,
    // Its tokens are in the response: the costs are all a replay needs besides.
    costs: () => spent.stats?.costs,
    onReplay: (recorded) => replayModelUsage(context, turn.model, recorded),
  });
}

/**
 * Calls the model once (`generate`), checks its answer (`answer`), and reports the call
 * (`flotilla:model-call`, `failed` for a failure): the check rides in the usage account's `.then`.
 */
function modelCall(
  context: AgentContext,
  turn: ModelTurn,
  checked: { answer?: CheckedModelResponse },
): CallAnswer<ModelResponse> & { generate: () => Promise<ModelResponse> } {
  let startedAt = 0;
  const failed = (error: unknown): never => {
    observeCall(context, turn.model, startedAt, undefined);
    throw error;
  };
  return {
    generate: () => {
      startedAt = performance.now();
      return generateWithinBudget(context, turn.model, withSignal(turn.request, context.signal));
    },
    answer: (generated) => {
      try {
        checked.answer = checkModelResponseText(
          generated,
          turn.model,
          context.run.services.limits ?? DEFAULT_JSON_LIMITS,
        );
      } catch (error) {
        return failed(error);
      }
      const { response } = checked.answer;
      observeCall(context, turn.model, startedAt, response.usage);
      return response;
    },
    failed,
  };
}

/** The request with the agent's signal: itself when the caller set it already (`executeTurn`), else a copy. */
function withSignal(request: ModelRequest, signal: AbortSignal): ModelRequest {
  return request.signal === signal ? request : { ...request, signal };
}

/** The model-call channel, to build an observation only when someone subscribed (the worker's metrics). */
const modelCallChannel = channel(ObservationChannel.modelCall);

/** Reports a call (`usage` of a success, `undefined` for a failure) on `flotilla:model-call`. */
function observeCall(
  context: AgentContext,
  model: ModelAdapter,
  startedAt: number,
  usage: ModelResponse['usage'] | undefined,
): void {
  if (!modelCallChannel.hasSubscribers) return;
  observeModelCall({
    agentId: context.definition.id,
    provider: model.provider,
    model: model.id,
    durationMs: performance.now() - startedAt,
    ok: usage !== undefined,
    promptTokens: usage?.promptTokens ?? 0,
    completionTokens: usage?.completionTokens ?? 0,
  });
}

/** How many times a call rate limited (429) past its adapter's own retries is tried again. */
const MAX_RATE_LIMITED_ROUNDS = 10;

/** The pause after a 429 that names no `retry-after`. */
const DEFAULT_RATE_LIMIT_PAUSE_MS = 1000;

/**
 * Calls the model within its fleet-wide budget when it has limits (`RunServices.modelBudgets`):
 * waits for the budget before the call (an event per wait), corrects it by the real usage, and
 * on a 429 that outlasted the adapter's retries pauses the budget for the fleet and tries again
 * (waiting, not failing), at most {@link MAX_RATE_LIMITED_ROUNDS} times.
 */
function generateWithinBudget(
  context: AgentContext,
  model: ModelAdapter,
  request: ModelRequest,
): Promise<ModelResponse> {
  const budget = context.run.services.modelBudgets?.budgetFor(model, request, (wait) =>
    context.run.emit({ type: 'rate-limit-wait', callPath: context.callPath, ...wait }),
  );
  // No budget (the usual case): the adapter's own promise, no async wrapper adopting it.
  if (!budget) return model.generate(request);
  return generateBudgeted(context, model, request, budget);
}

async function generateBudgeted(
  context: AgentContext,
  model: ModelAdapter,
  request: ModelRequest,
  budget: CallBudget,
): Promise<ModelResponse> {
  let streamed = false;
  const onDelta = request.onDelta;
  const watched: ModelRequest = onDelta
    ? {
        ...request,
        onDelta: (delta) => {
          streamed = true;
          onDelta(delta);
        },
      }
    : request;
  // A long wait parks the run (no slot held) where it can be replayed; the turn looks again then.
  const park = context.run.services.waits
    ? (wait: BudgetWait, wakeAt: number) =>
        suspendUntil(context, {
          waitingFor: {
            kind: 'rate-limit',
            detail: `${wait.provider}/${wait.modelId} (${wait.reason}, ${wait.waitMs} ms)`,
          },
          wakeAt,
        })
    : undefined;
  for (let round = 1; ; round++) {
    await budget.acquireOrPark(park);
    try {
      const response = await model.generate({ ...watched, budget });
      await budget.settle(response.usage);
      return response;
    } catch (error) {
      const rateLimited = ModelCallError.is(error) && error.status === 429;
      if (!rateLimited || streamed || round >= MAX_RATE_LIMITED_ROUNDS || request.signal?.aborted)
        throw error;
      const retryAfterSeconds = (error as ModelCallError).retryAfterSeconds;
      await budget.pause(
        retryAfterSeconds === undefined ? DEFAULT_RATE_LIMIT_PAUSE_MS : retryAfterSeconds * 1000,
      );
    }
  }
}
