/**
 * The boundary where a model's answer enters the runtime (`engine/model-turn.ts` calls it on
 * every live turn, before the answer is journaled): the answer is bounded like every outside
 * value (`json/json-bounds.ts`), has the {@link ModelResponse} shape the policies rely on, and
 * each tool call's arguments, once parsed, are within the depth limit. Arguments that are not
 * JSON are left to the tool call, which answers the model with the parse error.
 */
import { z } from 'zod';
import { describeIssue } from '../jobs/describe-issue.js';
import { checkJsonBounds, type JsonLimits, parseBoundedJson } from '../json/json-bounds.js';
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
  checkJsonBounds(response, `the answer of model "${model.id}"`, limits, { lenient: true });
  const parsed = modelResponseSchema.safeParse(response);
  if (!parsed.success) throw new InvalidModelResponseError(model, describeIssue(parsed.error));
  for (const call of parsed.data.message.tool_calls ?? []) {
    const source = `the arguments of tool call "${call.id}" (${call.function.name}) from model "${model.id}"`;
    try {
      parseBoundedJson(call.function.arguments, source, limits);
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
    }
  }
  return response as ModelResponse;
}
