/**
 * The boundary where a model's answer enters the runtime (`engine/model-turn.ts` calls it on
 * every live turn, before the answer is journaled): the answer is bounded like every outside
 * value (`json/json-bounds.ts`), has the {@link ModelResponse} shape the policies rely on, and
 * each tool call's arguments, once parsed, are within the depth limit. Arguments that are not
 * JSON are left to the tool call, which answers the model with the parse error.
 */
import { z } from 'zod';
import { describeIssue } from '../jobs/describe-issue.js';
import {
  checkJsonBounds,
  type JsonLimits,
  jsonTextWithinBounds,
  parseBoundedJson,
} from '../json/json-bounds.js';
import { InvalidModelResponseError } from './invalid-model-response-error.js';
import type { ModelAdapter, ModelResponse } from './model-adapter.js';

const toolCallSchema = z.looseObject(
  {
    id: z.string({ error: 'must be a string' }),
    type: z.literal('function', { error: 'must be "function"' }),
    function: z.looseObject(
      {
        name: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }),
        arguments: z.string({ error: 'must be JSON text' }),
      },
      { error: 'must be an object { name, arguments }' },
    ),
  },
  { error: 'must be an object { id, type: "function", function }' },
);

const countSchema = z.number({ error: 'must be a number' });

const modelResponseSchema = z.object(
  {
    message: z.looseObject(
      {
        role: z.literal('assistant', { error: 'must be "assistant"' }),
        content: z.string({ error: 'must be a string' }),
        tool_calls: z.array(toolCallSchema, { error: 'must be an array of tool calls' }).optional(),
      },
      { error: 'must be an object' },
    ),
    usage: z.looseObject(
      { promptTokens: countSchema, completionTokens: countSchema, totalTokens: countSchema },
      { error: 'must be an object { promptTokens, completionTokens, totalTokens }' },
    ),
    finishReason: z.looseObject(
      { unified: z.string({ error: 'must be a string' }) },
      { error: 'must be an object { unified, raw? }' },
    ),
  },
  { error: 'the answer must be an object { message, usage, finishReason }' },
);

/**
 * Checks a live model answer.
 * @returns the answer itself (unchanged)
 * @throws InvalidModelResponseError naming the field when it is not a {@link ModelResponse}
 * @throws ValueTooDeepError / PayloadTooLargeError / NotJsonError naming the model (and the tool call)
 */
export function checkModelResponse(
  response: unknown,
  model: Pick<ModelAdapter, 'id' | 'provider'>,
  limits: JsonLimits,
): ModelResponse {
  return checkModelResponseText(response, model, limits).response;
}

/** A checked answer and its JSON text, when the check wrote it. */
export interface CheckedModelResponse {
  response: ModelResponse;
  /**
   * `JSON.stringify(response)` as of the check (what a journal stores), when it was written to
   * check the answer's bounds: the caller may store it instead of writing it again.
   */
  text?: string;
}

/**
 * {@link checkModelResponse}, giving the answer's JSON text too. The bounds are checked on the
 * text when it is within them (`jsonTextWithinBounds`), else by the walk (the same errors); the
 * shape by a plain check of what {@link modelResponseSchema} requires (no more), and by the
 * schema (its message) only when that says no.
 */
export function checkModelResponseText(
  response: unknown,
  model: Pick<ModelAdapter, 'id' | 'provider'>,
  limits: JsonLimits,
): CheckedModelResponse {
  const text = stringify(response);
  if (text === undefined || !jsonTextWithinBounds(text, limits))
    checkJsonBounds(response, `the answer of model "${model.id}"`, limits, { lenient: true });
  let calls: readonly { id: string; function: { name: string; arguments: string } }[] | undefined;
  if (hasResponseShape(response)) calls = response.message.tool_calls;
  else {
    const parsed = modelResponseSchema.safeParse(response);
    if (!parsed.success) throw new InvalidModelResponseError(model, describeIssue(parsed.error));
    calls = parsed.data.message.tool_calls;
  }
  for (const call of calls ?? []) {
    const source = `the arguments of tool call "${call.id}" (${call.function.name}) from model "${model.id}"`;
    try {
      parseBoundedJson(call.function.arguments, source, limits);
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
    }
  }
  return text === undefined
    ? { response: response as ModelResponse }
    : { response: response as ModelResponse, text };
}

function stringify(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/**
 * Whether `value` has what {@link modelResponseSchema} requires (nothing it would refuse passes
 * here; what fails here is left to the schema, for its message). Zod's parse was ~1% of a
 * worker's CPU on a conversational run (issue 15, round 5).
 */
function hasResponseShape(value: unknown): value is ModelResponse {
  if (!isObject(value)) return false;
  const { message, usage, finishReason } = value as Record<string, unknown>;
  if (!isObject(message) || !isObject(usage) || !isObject(finishReason)) return false;
  const { role, content, tool_calls: calls } = message as Record<string, unknown>;
  if (role !== 'assistant' || typeof content !== 'string') return false;
  if (calls !== undefined) {
    if (!Array.isArray(calls)) return false;
    for (const call of calls) if (!isToolCall(call)) return false;
  }
  const { promptTokens, completionTokens, totalTokens } = usage as Record<string, unknown>;
  return (
    isCount(promptTokens) &&
    isCount(completionTokens) &&
    isCount(totalTokens) &&
    typeof (finishReason as Record<string, unknown>).unified === 'string'
  );
}

function isToolCall(call: unknown): boolean {
  if (!isObject(call)) return false;
  const { id, type, function: fn } = call as Record<string, unknown>;
  if (typeof id !== 'string' || type !== 'function' || !isObject(fn)) return false;
  const { name, arguments: args } = fn as Record<string, unknown>;
  return typeof name === 'string' && name.length > 0 && typeof args === 'string';
}

/** A plain object (what zod's object schemas take, and no more). */
function isObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function isCount(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value);
}
