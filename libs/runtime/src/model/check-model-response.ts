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
  /**
   * With `text`, when the check copied the answer: what `JSON.parse(text)` gives (same fields,
   * same order, no object shared with the answer), so the caller need not parse it back.
   */
  copy?: ModelResponse;
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
  // The usual answer (the ModelResponse fields only, all scalars of their type) is copied as it
  // is checked: its depth is known and it is its own JSON image. Anything else is checked below.
  const copy = text === undefined ? undefined : plainResponseCopy(response);
  if (
    copy !== undefined &&
    MAX_PLAIN_RESPONSE_DEPTH <= limits.maxDepth &&
    withinBytes(text as string, limits)
  ) {
    checkToolArguments(copy.message.tool_calls, model, limits);
    return { response: response as ModelResponse, text, copy };
  }
  if (text === undefined || !jsonTextWithinBounds(text, limits))
    checkJsonBounds(response, `the answer of model "${model.id}"`, limits, { lenient: true });
  let calls: readonly { id: string; function: { name: string; arguments: string } }[] | undefined;
  if (hasResponseShape(response)) calls = response.message.tool_calls;
  else {
    const parsed = modelResponseSchema.safeParse(response);
    if (!parsed.success) throw new InvalidModelResponseError(model, describeIssue(parsed.error));
    calls = parsed.data.message.tool_calls;
  }
  checkToolArguments(calls, model, limits);
  return text === undefined
    ? { response: response as ModelResponse }
    : { response: response as ModelResponse, text };
}

/** Each tool call's arguments, once parsed, are within the limits (text that is not JSON is the tool call's to answer). */
function checkToolArguments(
  calls: readonly { id: string; function: { name: string; arguments: string } }[] | undefined,
  model: Pick<ModelAdapter, 'id' | 'provider'>,
  limits: JsonLimits,
): void {
  for (const call of calls ?? []) {
    const source = `the arguments of tool call "${call.id}" (${call.function.name}) from model "${model.id}"`;
    try {
      parseBoundedJson(call.function.arguments, source, limits);
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
    }
  }
}

function withinBytes(text: string, limits: JsonLimits): boolean {
  return text.length * 3 <= limits.maxBytes || Buffer.byteLength(text, 'utf8') <= limits.maxBytes;
}

/** The nesting of a plain answer at most: answer → message → tool_calls → call → function. */
const MAX_PLAIN_RESPONSE_DEPTH = 5;

/**
 * A copy of `value` when it is a plain answer: plain objects holding only the fields
 * {@link ModelResponse} names (`message` { role "assistant", content, tool_calls? }, each call
 * { id, type "function", function { name (not empty), arguments }, thoughtSignature? }, `usage`
 * { promptTokens, completionTokens, totalTokens, details? of numbers }, `finishReason`
 * { unified, raw? }), each a string or a finite number (not -0) as its type says, none
 * `undefined`. Such a value is what {@link modelResponseSchema} accepts and is its own JSON image,
 * so the copy — fields in the answer's order — is what `JSON.parse(JSON.stringify(value))` gives.
 * `undefined` for anything else (the caller checks it the long way).
 */
function plainResponseCopy(value: unknown): ModelResponse | undefined {
  if (!isObject(value)) return undefined;
  const copy: Record<string, unknown> = {};
  let fields = 0;
  for (const key in value as Record<string, unknown>) {
    const field = (value as Record<string, unknown>)[key];
    let copied: unknown;
    if (key === 'message') copied = plainMessageCopy(field);
    else if (key === 'usage') copied = plainUsageCopy(field);
    else if (key === 'finishReason') copied = plainFinishReasonCopy(field);
    if (copied === undefined) return undefined;
    copy[key] = copied;
    fields++;
  }
  return fields === 3 ? (copy as unknown as ModelResponse) : undefined;
}

function plainMessageCopy(value: unknown): Record<string, unknown> | undefined {
  if (!isObject(value)) return undefined;
  const message = value as Record<string, unknown>;
  if (message.role !== 'assistant' || typeof message.content !== 'string') return undefined;
  const copy: Record<string, unknown> = {};
  for (const key in message) {
    const field = message[key];
    if (key === 'role' || key === 'content') copy[key] = field;
    else if (key === 'tool_calls') {
      if (!Array.isArray(field) || Object.getPrototypeOf(field) !== Array.prototype) return undefined;
      const calls: Record<string, unknown>[] = [];
      for (let index = 0; index < field.length; index++) {
        const call = plainToolCallCopy(field[index]);
        if (call === undefined) return undefined;
        calls.push(call);
      }
      copy[key] = calls;
    } else return undefined;
  }
  return copy;
}

function plainToolCallCopy(value: unknown): Record<string, unknown> | undefined {
  if (!isObject(value)) return undefined;
  const call = value as Record<string, unknown>;
  if (typeof call.id !== 'string' || call.type !== 'function') return undefined;
  const copy: Record<string, unknown> = {};
  let fn: Record<string, unknown> | undefined;
  for (const key in call) {
    const field = call[key];
    if (key === 'id' || key === 'type') copy[key] = field;
    else if (key === 'thoughtSignature' && typeof field === 'string') copy[key] = field;
    else if (key === 'function') {
      fn = plainFunctionCopy(field);
      if (fn === undefined) return undefined;
      copy[key] = fn;
    } else return undefined;
  }
  return fn === undefined ? undefined : copy;
}

function plainFunctionCopy(value: unknown): Record<string, unknown> | undefined {
  if (!isObject(value)) return undefined;
  const fn = value as Record<string, unknown>;
  if (typeof fn.name !== 'string' || fn.name.length === 0 || typeof fn.arguments !== 'string')
    return undefined;
  return plainRecordCopy(fn, (key) => key === 'name' || key === 'arguments', 2);
}

function plainUsageCopy(value: unknown): Record<string, unknown> | undefined {
  if (!isObject(value)) return undefined;
  const usage = value as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  let counts = 0;
  for (const key in usage) {
    const field = usage[key];
    if (key === 'promptTokens' || key === 'completionTokens' || key === 'totalTokens') {
      if (!isPlainNumber(field)) return undefined;
      counts++;
      copy[key] = field;
    } else if (key === 'details') {
      if (!isObject(field)) return undefined;
      const details = plainRecordCopy(field as Record<string, unknown>, () => true, 0, isPlainNumber);
      if (details === undefined) return undefined;
      copy[key] = details;
    } else return undefined;
  }
  return counts === 3 ? copy : undefined;
}

function plainFinishReasonCopy(value: unknown): Record<string, unknown> | undefined {
  if (!isObject(value) || typeof (value as Record<string, unknown>).unified !== 'string') return undefined;
  return plainRecordCopy(value as Record<string, unknown>, (key) => key === 'unified' || key === 'raw', 0);
}

/**
 * A copy of `record` when its keys are all `known`, at least `required` of them, and every value
 * passes `scalar` (a string by default); else `undefined`.
 */
function plainRecordCopy(
  record: Record<string, unknown>,
  known: (key: string) => boolean,
  required: number,
  scalar: (value: unknown) => boolean = isString,
): Record<string, unknown> | undefined {
  const copy: Record<string, unknown> = {};
  let fields = 0;
  for (const key in record) {
    const field = record[key];
    if (!known(key) || key === '__proto__' || !scalar(field)) return undefined;
    copy[key] = field;
    fields++;
  }
  return fields >= required ? copy : undefined;
}

function isString(value: unknown): boolean {
  return typeof value === 'string';
}

/** A finite number JSON writes back as itself (-0 reads back as 0). */
function isPlainNumber(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value) && !Object.is(value, -0);
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
