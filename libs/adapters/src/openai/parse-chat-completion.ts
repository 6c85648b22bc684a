import type { Message, ToolCall } from '@flotilla/ir';
import type { ModelResponse } from '@flotilla/runtime';
import type { ChatCompletion, ChatCompletionMessageToolCall } from 'openai/resources/chat/completions';
import { convertChatUsage } from './convert-openai-usage.js';
import { mapOpenAIFinishReason } from './map-openai-finish-reason.js';

/**
 * A one-shot Chat Completions answer → IR: text (a refusal reads as text), function tool
 * calls, usage and finish reason. Only the first choice is read (we never ask for `n > 1`).
 */
export function parseChatCompletion(completion: ChatCompletion): ModelResponse {
  const choice = completion.choices[0];
  const message: Message & { role: 'assistant' } = {
    role: 'assistant',
    content: choice?.message.content ?? choice?.message.refusal ?? '',
  };
  const toolCalls = (choice?.message.tool_calls ?? []).flatMap(toIRToolCall);
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  return {
    message,
    usage: convertChatUsage(completion.usage),
    finishReason: mapOpenAIFinishReason(choice?.finish_reason),
  };
}

function toIRToolCall(call: ChatCompletionMessageToolCall): ToolCall[] {
  // Custom (free-text) tools are never offered by us, so only function calls can come back.
  if (call.type !== 'function') return [];
  return [
    {
      id: call.id,
      type: 'function',
      function: { name: call.function.name, arguments: call.function.arguments },
    },
  ];
}
