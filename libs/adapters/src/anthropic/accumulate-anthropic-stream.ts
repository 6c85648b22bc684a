import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type { ModelDelta, ModelResponse } from '@flotilla/runtime';
import type { AnthropicUsageFields } from './convert-anthropic-usage.js';
import type { AnswerBlock, ParseOptions } from './parse-anthropic-message.js';
import { parseAnthropicMessage } from './parse-anthropic-message.js';

/**
 * Reads a Messages API event stream, reporting text, thinking and tool-call deltas through
 * `onDelta`, and builds the same answer a one-shot call returns: blocks by index (thinking
 * with its `signature_delta`, tool input from its `input_json_delta` fragments), usage from
 * `message_start` updated by `message_delta`, the stop reason of `message_delta`. Tool-call
 * delta indexes count tool calls only; in tool mode the output tool's input streams as text.
 * An `error` event is thrown by the SDK as an `APIError`.
 */
export async function accumulateAnthropicStream(
  stream: AsyncIterable<RawMessageStreamEvent>,
  onDelta: (delta: ModelDelta) => void,
  options: ParseOptions,
): Promise<ModelResponse> {
  const blocks: AnswerBlock[] = [];
  const toolIndexByBlock = new Map<number, number>();
  let usage: AnthropicUsageFields | undefined;
  let stopReason: string | null | undefined;
  for await (const event of stream) {
    switch (event.type) {
      case 'message_start':
        usage = { ...event.message.usage };
        break;
      case 'message_delta':
        usage = { ...usage, ...withoutNulls(event.usage) };
        stopReason = event.delta.stop_reason ?? stopReason;
        break;
      case 'content_block_start': {
        const block = startBlock(event.content_block);
        blocks[event.index] = block;
        if (block.type === 'tool_use' && 'name' in block && block.name !== options.outputTool) {
          const index = toolIndexByBlock.size;
          toolIndexByBlock.set(event.index, index);
          onDelta({ type: 'tool-call-delta', index, id: block.id, name: block.name });
        }
        break;
      }
      case 'content_block_delta':
        addDelta(
          blocks[event.index],
          event.delta,
          (delta) => onDelta(delta),
          toolIndexByBlock.get(event.index),
        );
        break;
    }
  }
  return parseAnthropicMessage({ content: blocks.filter(Boolean), stop_reason: stopReason, usage }, options);
}

type StartedBlock = Extract<RawMessageStreamEvent, { type: 'content_block_start' }>['content_block'];
type BlockDelta = Extract<RawMessageStreamEvent, { type: 'content_block_delta' }>['delta'];

function startBlock(block: StartedBlock): AnswerBlock {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'thinking':
      return { type: 'thinking', thinking: block.thinking, signature: block.signature };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: block.data };
    case 'tool_use':
      return { type: 'tool_use', id: block.id, name: block.name, inputJson: '' };
    default:
      return { type: block.type };
  }
}

function addDelta(
  block: AnswerBlock | undefined,
  delta: BlockDelta,
  onDelta: (delta: ModelDelta) => void,
  toolIndex: number | undefined,
): void {
  if (!block) return;
  if (delta.type === 'text_delta' && 'text' in block) {
    block.text += delta.text;
    onDelta({ type: 'text-delta', text: delta.text });
  } else if (delta.type === 'thinking_delta' && 'thinking' in block) {
    block.thinking += delta.thinking;
    onDelta({ type: 'reasoning-delta', text: delta.thinking });
  } else if (delta.type === 'signature_delta' && 'signature' in block) {
    block.signature += delta.signature;
  } else if (delta.type === 'input_json_delta' && 'inputJson' in block) {
    block.inputJson = (block.inputJson ?? '') + delta.partial_json;
    if (delta.partial_json === '') return;
    if (toolIndex === undefined) onDelta({ type: 'text-delta', text: delta.partial_json });
    else onDelta({ type: 'tool-call-delta', index: toolIndex, argumentsDelta: delta.partial_json });
  }
}

/** `message_delta` usage repeats fields as `null` when unchanged; keep the earlier values then. */
function withoutNulls(usage: object): AnthropicUsageFields {
  return Object.fromEntries(
    Object.entries(usage).filter(([, value]) => value !== null && value !== undefined),
  );
}
