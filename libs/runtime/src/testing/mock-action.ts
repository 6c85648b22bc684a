import type { FinishReason, Message, TokenUsage, ToolCall } from '@flotilla/ir';
import type { ModelRequest, ModelResponse } from '../model/model-adapter.js';
import { abortableDelay } from '../shared/abortable-delay.js';
import type { MockPayload } from './mock-payload.js';
import { toMockPayload } from './mock-payload.js';

/** A tool call the mock should make. `id` defaults to `call_<call index>_<position>`. */
export interface MockToolCall {
  id?: string;
  name: string;
  /** An object is sent as its JSON text; a string is sent as is (to test malformed arguments). */
  arguments: Record<string, unknown> | string;
  /** Passed through to the IR tool call, as Gemini would. */
  thoughtSignature?: string;
}

/** Computes an answer from the request: a complete response, or just the text. */
export type MockResponder = (
  payload: MockPayload,
) => MockResponse | string | object | Promise<MockResponse | string | object>;

const FULL_RESPONSE = Symbol('flotilla.mockResponse');

/** A whole model response returned from `thenDo` / `respond`, marked by {@link mockResponse}. */
export type MockResponse = ModelResponse & { readonly [FULL_RESPONSE]: true };

/**
 * Marks `response` as a whole model response (message, usage, finish reason) for a `thenDo`
 * responder; any other object a responder returns is the answer's content, as in the seed API.
 */
export function mockResponse(response: ModelResponse): MockResponse {
  return Object.assign({ ...response }, { [FULL_RESPONSE]: true as const });
}

/**
 * Whether a responder's value is a whole response: marked by {@link mockResponse}, or shaped as
 * one beyond doubt (only `message` with an assistant role, `usage` and `finishReason`).
 */
function isWholeResponse(value: unknown): value is ModelResponse {
  if (typeof value !== 'object' || value === null) return false;
  if (FULL_RESPONSE in value) return true;
  const keys = Object.keys(value);
  const { message } = value as { message?: { role?: unknown } };
  return (
    keys.includes('message') &&
    keys.every((key) => key === 'message' || key === 'usage' || key === 'finishReason') &&
    typeof message === 'object' &&
    message !== null &&
    message.role === 'assistant'
  );
}

/** Usage to report; `totalTokens` defaults to prompt + completion, missing counts to 0. */
export interface MockUsage {
  promptTokens?: number;
  completionTokens?: number;
  totalTokens?: number;
  details?: Record<string, number>;
}

/** What one answer does; rules and sequence steps both compile to this. */
export type MockAction = (
  | { kind: 'text'; text: string; chunks?: string[] }
  | { kind: 'tool-calls'; calls: MockToolCall[] }
  | { kind: 'throw'; error: unknown }
  | { kind: 'respond'; responder: MockResponder }
) & { usage?: MockUsage; delayMs?: number; extra?: Record<string, unknown> };

/** Where an action runs: the call's index (for default tool call ids) and the fallback usage. */
export interface MockActionContext {
  callIndex: number;
  defaultUsage: MockUsage | undefined;
  /** The delay of an action without its own. */
  defaultDelayMs: number | undefined;
}

/** Serialises a `thenReturn` value: strings stay text, anything else becomes JSON text. */
export function replyText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * Waits the action's delay, then answers. Throws the configured error for `throw` actions and
 * the signal's reason when the request is aborted during the delay.
 */
export async function performAction(
  action: MockAction,
  request: ModelRequest,
  context: MockActionContext,
): Promise<ModelResponse> {
  await abortableDelay(action.delayMs ?? context.defaultDelayMs ?? 0, request.signal);
  const usage = toTokenUsage(action.usage ?? context.defaultUsage);
  const response = await answer(action, request, context, usage);
  if (action.extra) response.message.extra = { ...action.extra };
  return response;
}

async function answer(
  action: MockAction,
  request: ModelRequest,
  context: MockActionContext,
  usage: TokenUsage,
): Promise<ModelResponse> {
  switch (action.kind) {
    case 'throw':
      throw action.error;
    case 'text':
      return textResponse(action.text, usage);
    case 'tool-calls':
      return toolCallResponse(action.calls, context.callIndex, usage);
    case 'respond': {
      const value = await action.responder(toMockPayload(request));
      if (!isWholeResponse(value)) return textResponse(replyText(value), usage);
      const { [FULL_RESPONSE]: _mark, ...response } = value as MockResponse;
      // An explicit withUsage wins over what the responder computed; otherwise keep its own.
      return action.usage ? { ...response, usage } : response;
    }
  }
}

/** Fills a partial usage; no usage configured means zero tokens. */
export function toTokenUsage(usage: MockUsage | undefined): TokenUsage {
  const promptTokens = usage?.promptTokens ?? 0;
  const completionTokens = usage?.completionTokens ?? 0;
  const result: TokenUsage = {
    promptTokens,
    completionTokens,
    totalTokens: usage?.totalTokens ?? promptTokens + completionTokens,
  };
  if (usage?.details) result.details = { ...usage.details };
  return result;
}

const STOP: FinishReason = { unified: 'stop', raw: 'stop' };
const TOOL_CALLS: FinishReason = { unified: 'tool_calls', raw: 'tool_calls' };

function textResponse(text: string, usage: TokenUsage): ModelResponse {
  return { message: { role: 'assistant', content: text }, usage, finishReason: STOP };
}

function toolCallResponse(calls: MockToolCall[], callIndex: number, usage: TokenUsage): ModelResponse {
  const toolCalls = calls.map((call, position): ToolCall => {
    const toolCall: ToolCall = {
      id: call.id ?? `call_${callIndex}_${position}`,
      type: 'function',
      function: { name: call.name, arguments: replyText(call.arguments) },
    };
    if (call.thoughtSignature !== undefined) toolCall.thoughtSignature = call.thoughtSignature;
    return toolCall;
  });
  const message: Message & { role: 'assistant' } = { role: 'assistant', content: '', tool_calls: toolCalls };
  return { message, usage, finishReason: TOOL_CALLS };
}
