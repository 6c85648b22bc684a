import type { Message, ToolCall } from '@flotilla/ir';
import type { ModelResponse } from '@flotilla/runtime';
import type { ChatCompletion, ChatCompletionMessageToolCall } from 'openai/resources/chat/completions';
import { convertChatUsage } from './convert-openai-usage.js';
import { mapOpenAIFinishReason } from './map-openai-finish-reason.js';

/** The answer message; `reasoning_content` is sent by compatible servers (DeepSeek …). */
type CompletionMessage = ChatCompletion.Choice['message'] & { reasoning_content?: string | null };

/**
 * A one-shot Chat Completions answer → IR: text (a refusal reads as text), function tool
 * calls, usage and finish reason; a compatible server's `reasoning_content` is kept in
 * `thinking` (unsigned: the OpenAI target strips it, the Anthropic one drops it). Only the
 * first choice is read (we never ask for `n > 1`).
 */
export function parseChatCompletion(completion: ChatCompletion): ModelResponse {
  const choice = completion.choices[0];
  const answer: CompletionMessage | undefined = choice?.message;
  const message: Message & { role: 'assistant' } = {
    role: 'assistant',
    content: answer?.content ?? answer?.refusal ?? '',
  };
  if (answer?.reasoning_content) message.thinking = { thinking: answer.reasoning_content };
  const toolCalls = (answer?.tool_calls ?? []).flatMap(toIRToolCall);
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
