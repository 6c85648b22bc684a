import { OpenAIAdapter } from '@flotilla/ir';
import type { ModelRequest } from '@flotilla/runtime';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { mergeConsecutiveSameRole } from './merge-same-role-messages.js';
import type { OpenAIModelAdapterOptions } from './openai-model-adapter-options.js';

/** The body of a non-streaming `chat.completions.create`; streaming adds `stream` fields. */
export type ChatRequestBody = ChatCompletionCreateParamsNonStreaming;

const target = new OpenAIAdapter();

/**
 * IR request → Chat Completions body: messages and tools compiled by the `@flotilla/ir`
 * `openai` target (which also moves tool-result media into a following user message), then
 * tool choice (only with tools), strict JSON-schema `response_format`, sampling options and
 * `extraBody` underneath everything the adapter sets.
 */
export function buildChatRequest(request: ModelRequest, options: OpenAIModelAdapterOptions): ChatRequestBody {
  const payload = target.compile(request.messages, {
    ...(request.tools ? { tools: request.tools } : {}),
    ...(options.onWarning ? { onWarning: options.onWarning } : {}),
  });
  const messages = payload.messages as ChatRequestBody['messages'];
  const body: ChatRequestBody = {
    ...options.extraBody,
    model: options.model,
    messages: options.mergeConsecutiveSameRole ? mergeConsecutiveSameRole(messages) : messages,
  };
  if (payload.tools && payload.tools.length > 0) {
    body.tools = payload.tools as ChatRequestBody['tools'];
    if (request.toolChoice) body.tool_choice = request.toolChoice;
  }
  if (request.schema) {
    body.response_format = {
      type: 'json_schema',
      json_schema: {
        name: request.schema.name,
        schema: request.schema.jsonSchema,
        strict: options.strictSchema ?? true,
      },
    };
  }
  if (options.temperature !== undefined) body.temperature = options.temperature;
  if (options.maxTokens !== undefined) body.max_completion_tokens = options.maxTokens;
  if (options.reasoningEffort !== undefined) body.reasoning_effort = options.reasoningEffort;
  return body;
}
