import type { Message, ToolCall } from '@flotilla/ir';
import type { ModelDelta, ModelResponse } from '@flotilla/runtime';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { convertChatUsage } from './convert-openai-usage.js';
import { mapOpenAIFinishReason } from './map-openai-finish-reason.js';

/** The parts of a streamed delta we read; `reasoning_content` is sent by compatible servers (DeepSeek …). */
type ChunkDelta = ChatCompletionChunk.Choice.Delta & { reasoning_content?: string | null };

/**
 * Reads a Chat Completions stream to the end, reporting each text, reasoning and tool-call
 * delta through `onDelta`, and returns the complete IR answer (reasoning kept in `thinking`). Tool-call fragments are merged
 * by index: the latest id and name win, arguments are concatenated. A malformed chunk never
 * throws here: `tool_calls` that is not a list is passed on for the runtime's model-answer
 * check to refuse with `InvalidModelResponseError`.
 */
export async function accumulateChatStream(
  stream: AsyncIterable<ChatCompletionChunk>,
  onDelta: (delta: ModelDelta) => void,
): Promise<ModelResponse> {
  let text = '';
  let reasoning = '';
  let finishReason: string | null | undefined;
  let usage: ChatCompletionChunk['usage'];
  const calls = new Map<number, { id: string; name: string; arguments: string }>();
  let malformedCalls: unknown;
  for await (const chunk of stream) {
    if (chunk?.usage) usage = chunk.usage;
    const choices: unknown = chunk?.choices;
    const choice = Array.isArray(choices)
      ? (choices[0] as ChatCompletionChunk.Choice | undefined)
      : undefined;
    if (!choice) continue;
    const delta: ChunkDelta = choice.delta ?? {};
    if (delta.reasoning_content) {
      reasoning += delta.reasoning_content;
      onDelta({ type: 'reasoning-delta', text: delta.reasoning_content });
    }
    if (delta.content) {
      text += delta.content;
      onDelta({ type: 'text-delta', text: delta.content });
    }
    const fragments: unknown = delta.tool_calls ?? [];
    if (!Array.isArray(fragments) || fragments.some((fragment) => !isFragment(fragment))) {
      malformedCalls = fragments;
      continue;
    }
    for (const fragment of fragments as ChatCompletionChunk.Choice.Delta.ToolCall[]) {
      const call = calls.get(fragment.index) ?? { id: '', name: '', arguments: '' };
      call.id = fragment.id || call.id;
      call.name = fragment.function?.name || call.name;
      call.arguments += fragment.function?.arguments ?? '';
      calls.set(fragment.index, call);
      onDelta(toolCallDelta(fragment));
    }
    if (choice.finish_reason) finishReason = choice.finish_reason;
  }
  const message = assistantMessage(text, calls);
  if (malformedCalls !== undefined) message.tool_calls = malformedCalls as ToolCall[];
  if (reasoning !== '') message.thinking = { thinking: reasoning };
  return {
    message,
    usage: convertChatUsage(usage),
    finishReason: mapOpenAIFinishReason(finishReason),
  };
}

function toolCallDelta(fragment: ChatCompletionChunk.Choice.Delta.ToolCall): ModelDelta {
  const delta: ModelDelta = { type: 'tool-call-delta', index: fragment.index };
  if (fragment.id) delta.id = fragment.id;
  if (fragment.function?.name) delta.name = fragment.function.name;
  if (fragment.function?.arguments) delta.argumentsDelta = fragment.function.arguments;
  return delta;
}

function assistantMessage(
  text: string,
  calls: Map<number, { id: string; name: string; arguments: string }>,
): Message & { role: 'assistant' } {
  const message: Message & { role: 'assistant' } = { role: 'assistant', content: text };
  const toolCalls = [...calls.entries()]
    .sort(([a], [b]) => a - b)
    .map(
      ([, call]): ToolCall => ({
        id: call.id,
        type: 'function',
        function: { name: call.name, arguments: call.arguments },
      }),
    );
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  return message;
}

function isFragment(value: unknown): boolean {
  return (
    typeof value === 'object' && value !== null && typeof (value as { index?: unknown }).index === 'number'
  );
}
