import type { FinishReason, Message, ToolCall } from '@flotilla/ir';
import type { ModelResponse } from '@flotilla/runtime';
import type { Response, ResponseOutputItem } from 'openai/resources/responses/responses';
import { providerFailureError } from '../shared/provider-failure-error.js';
import { convertResponsesUsage } from './convert-openai-usage.js';

/** Who answered, for the error of a failed response. */
export interface ResponsesSite {
  provider: string;
  modelId: string;
}

/**
 * A finished Responses API response → IR: output text, `function_call` items as tool calls
 * (`call_id` becomes the IR id) and reasoning items kept verbatim in `_openai_reasoning`, so
 * the `openai-responses` target can send them back. Throws a `ModelCallError` when the
 * response failed (retryable for server errors and rate limits only).
 */
export function parseResponsesOutput(response: Response, site: ResponsesSite): ModelResponse {
  if (response.status === 'failed') throw failedResponseError(response, site);
  const message: Message & { role: 'assistant' } = {
    role: 'assistant',
    content: outputText(response.output),
  };
  const toolCalls = response.output.flatMap(toIRToolCall);
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  const reasoning = response.output.filter((item) => item.type === 'reasoning');
  if (reasoning.length > 0) message._openai_reasoning = reasoning;
  return {
    message,
    usage: convertResponsesUsage(response.usage),
    finishReason: responsesFinishReason(response, toolCalls.length > 0),
  };
}

function outputText(output: ResponseOutputItem[]): string {
  return output
    .flatMap((item) => (item.type === 'message' ? item.content : []))
    .map((part) => (part.type === 'output_text' ? part.text : part.refusal))
    .join('');
}

function toIRToolCall(item: ResponseOutputItem): ToolCall[] {
  if (item.type !== 'function_call') return [];
  return [{ id: item.call_id, type: 'function', function: { name: item.name, arguments: item.arguments } }];
}

function responsesFinishReason(response: Response, hasToolCalls: boolean): FinishReason {
  if (response.status === 'incomplete') {
    const raw = response.incomplete_details?.reason ?? 'incomplete';
    if (raw === 'max_output_tokens') return { unified: 'length', raw };
    if (raw === 'content_filter') return { unified: 'content_filter', raw };
    return { unified: 'unknown', raw };
  }
  if (response.status !== 'completed') return { unified: 'unknown', raw: response.status ?? 'unknown' };
  return hasToolCalls ? { unified: 'tool_calls', raw: 'completed' } : { unified: 'stop', raw: 'completed' };
}

function failedResponseError(response: Response, site: ResponsesSite): Error {
  const code = response.error?.code;
  return providerFailureError({
    ...site,
    endpoint: 'responses',
    status: undefined,
    detail: `response ${response.id} failed (${code ?? 'no code'}): ${response.error?.message ?? 'no message'}`,
    retryAfterSeconds: undefined,
    attempts: 1,
    cause: response.error,
    retryable: code === 'server_error' || code === 'rate_limit_exceeded',
  });
}
