import { OpenAIResponsesAdapter } from '@flotilla/ir';
import type { ModelRequest, ToolChoice } from '@flotilla/runtime';
import type {
  ResponseCreateParamsNonStreaming,
  ToolChoiceOptions,
} from 'openai/resources/responses/responses';
import type { OpenAIModelAdapterOptions } from './openai-model-adapter-options.js';

/** The body of a non-streaming `responses.create`; streaming adds `stream: true`. */
export type ResponsesRequestBody = ResponseCreateParamsNonStreaming;

const target = new OpenAIResponsesAdapter();

/**
 * IR request → Responses API body: `instructions`, `input` items (reasoning items re-emitted
 * verbatim) and flat function tools from the `@flotilla/ir` `openai-responses` target, then
 * tool choice (only with tools), strict JSON-schema `text.format`, sampling options and
 * `extraBody` underneath everything the adapter sets.
 */
export function buildResponsesRequest(
  request: ModelRequest,
  options: OpenAIModelAdapterOptions,
): ResponsesRequestBody {
  const payload = target.compile(request.messages, {
    ...(request.tools ? { tools: request.tools } : {}),
    ...(options.onWarning ? { onWarning: options.onWarning } : {}),
  });
  const body: ResponsesRequestBody = {
    ...options.extraBody,
    model: options.model,
    input: payload.input as ResponsesRequestBody['input'],
  };
  if (payload.instructions) body.instructions = payload.instructions;
  if (payload.tools && payload.tools.length > 0) {
    body.tools = payload.tools as ResponsesRequestBody['tools'];
    if (request.toolChoice) body.tool_choice = responsesToolChoice(request.toolChoice);
  }
  if (request.schema) {
    body.text = {
      format: {
        type: 'json_schema',
        name: request.schema.name,
        schema: request.schema.jsonSchema,
        strict: options.strictSchema ?? true,
      },
    };
  }
  if (options.temperature !== undefined) body.temperature = options.temperature;
  if (options.maxTokens !== undefined) body.max_output_tokens = options.maxTokens;
  if (options.reasoningEffort !== undefined) body.reasoning = { effort: options.reasoningEffort };
  return body;
}

/** The Responses API names a forced function flat: `{ type: 'function', name }`. */
function responsesToolChoice(choice: ToolChoice): ToolChoiceOptions | { type: 'function'; name: string } {
  return typeof choice === 'string' ? choice : { type: 'function', name: choice.function.name };
}
