import type { Message, ToolCall } from '@flotilla/ir';
import type { ModelResponse } from '@flotilla/runtime';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import { convertChatUsage } from './convert-openai-usage.js';
import { mapOpenAIFinishReason } from './map-openai-finish-reason.js';

/** The answer message; `reasoning_content` is sent by compatible servers (DeepSeek …). */
type CompletionMessage = ChatCompletion.Choice['message'] & { reasoning_content?: string | null };

/**
 * A one-shot Chat Completions answer → IR: text (a refusal reads as text), function tool
 * calls, usage and finish reason; a compatible server's `reasoning_content` is kept in
 * `thinking` (unsigned: the OpenAI target strips it, the Anthropic one drops it). Only the
 * first choice is read (we never ask for `n > 1`).
 *
 * Never throws on a malformed answer (a compatible server may send anything): what does not
 * have the expected shape is passed on as it is, and the runtime's model-answer check refuses
 * it with `InvalidModelResponseError` naming the field (e.g. a tool call without `function`).
 */
export function parseChatCompletion(completion: ChatCompletion): ModelResponse {
  const choices: unknown = completion?.choices;
  const choice = Array.isArray(choices) ? (choices[0] as ChatCompletion.Choice | undefined) : undefined;
  const answer: CompletionMessage | undefined = choice?.message;
  const message: Message & { role: 'assistant' } = {
    role: 'assistant',
    content: answer?.content ?? answer?.refusal ?? '',
  };
  if (answer?.reasoning_content) message.thinking = { thinking: answer.reasoning_content };
  const toolCalls = toIRToolCalls(answer?.tool_calls);
  if (!Array.isArray(toolCalls) || toolCalls.length > 0) message.tool_calls = toolCalls;
  return {
    message,
    usage: convertChatUsage(completion?.usage),
    finishReason: mapOpenAIFinishReason(choice?.finish_reason),
  };
}

/** The answer's function calls in IR; a value that is not a list is kept for the runtime to refuse. */
export function toIRToolCalls(calls: unknown): ToolCall[] {
  if (calls === undefined || calls === null) return [];
  if (!Array.isArray(calls)) return calls as ToolCall[];
  return calls.flatMap(toIRToolCall);
}

function toIRToolCall(call: unknown): ToolCall[] {
  if (typeof call !== 'object' || call === null) return [call as ToolCall];
  const { id, type, function: fn } = call as { id?: unknown; type?: unknown; function?: unknown };
  // Custom (free-text) tools are never offered by us, so only function calls can come back.
  if (type !== undefined && type !== 'function') return [];
  const named =
    typeof fn === 'object' && fn !== null ? (fn as { name?: unknown; arguments?: unknown }) : undefined;
  return [
    {
      id,
      type: 'function',
      function: named ? { name: named.name, arguments: named.arguments } : fn,
    } as ToolCall,
  ];
}
