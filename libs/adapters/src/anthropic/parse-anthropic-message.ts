import type { CompileWarning, Message, ToolCall } from '@flotilla/ir';
import type { ModelResponse } from '@flotilla/runtime';
import { reportWarning } from '../shared/report-warning.js';
import { toolArgumentsText } from '../shared/tool-arguments-text.js';
import type { AnthropicUsageFields } from './convert-anthropic-usage.js';
import { convertAnthropicUsage } from './convert-anthropic-usage.js';
import { mapAnthropicFinishReason } from './map-anthropic-finish-reason.js';

/** The content blocks of an answer that the IR keeps; other (server tool) blocks are skipped. */
export type AnswerBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input?: unknown; inputJson?: string }
  | { type: string };

/** A finished answer: a `Message`, or what a stream added up to. */
export interface AnthropicAnswer {
  content: AnswerBlock[];
  stop_reason: string | null | undefined;
  usage: AnthropicUsageFields | undefined;
}

/** How to read an answer: the structured-output tool (tool mode) and where warnings go. */
export interface ParseOptions {
  outputTool: string | undefined;
  onWarning: ((warning: CompileWarning) => void) | undefined;
}

/**
 * An Anthropic answer → one IR assistant message: text blocks joined; `tool_use` blocks as
 * tool calls (`input` as JSON text); the thinking block kept with its signature in `thinking`
 * and a redacted one in `redacted_thinking`, so the `anthropic` target sends them back
 * unchanged. The IR holds one of each: further blocks are dropped with a
 * `thinking-blocks-dropped` warning. In tool mode the output tool's input is the answer text,
 * not a call.
 */
export function parseAnthropicMessage(answer: AnthropicAnswer, options: ParseOptions): ModelResponse {
  const text: string[] = [];
  const toolCalls: ToolCall[] = [];
  const message: Message & { role: 'assistant' } = { role: 'assistant', content: '' };
  let dropped = 0;
  // A malformed answer never throws a bare TypeError here; the runtime checks what comes out.
  const blocks: unknown = answer?.content;
  for (const block of (Array.isArray(blocks) ? blocks : []) as AnswerBlock[]) {
    if (typeof block !== 'object' || block === null) continue;
    if (isBlock(block, 'text')) text.push(block.text);
    else if (isBlock(block, 'thinking')) {
      if (message.thinking) dropped++;
      else message.thinking = { thinking: block.thinking, signature: block.signature };
    } else if (isBlock(block, 'redacted_thinking')) {
      if (message.redacted_thinking) dropped++;
      else message.redacted_thinking = { data: block.data };
    } else if (isBlock(block, 'tool_use')) {
      const input =
        block.inputJson !== undefined
          ? block.inputJson || '{}'
          : toolArgumentsText(block.input ?? {}, 'anthropic');
      if (block.name === options.outputTool) text.push(input);
      else
        toolCalls.push({ id: block.id, type: 'function', function: { name: block.name, arguments: input } });
    }
  }
  message.content = text.join('');
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  if (dropped > 0) reportDropped(dropped, options);
  return {
    message: orderFields(message),
    usage: convertAnthropicUsage(answer?.usage),
    finishReason: mapAnthropicFinishReason(answer.stop_reason, toolCalls.length > 0),
  };
}

function isBlock<T extends AnswerBlock['type']>(
  block: AnswerBlock,
  type: T,
): block is Extract<AnswerBlock, { type: T }> {
  return block.type === type;
}

/** The same field order as the other adapters' answers: role, content, tool_calls, thinking. */
function orderFields(message: Message & { role: 'assistant' }): Message & { role: 'assistant' } {
  const { role, content, tool_calls, thinking, redacted_thinking } = message;
  return {
    role,
    content,
    ...(tool_calls ? { tool_calls } : {}),
    ...(thinking ? { thinking } : {}),
    ...(redacted_thinking ? { redacted_thinking } : {}),
  };
}

function reportDropped(count: number, options: ParseOptions): void {
  reportWarning(options.onWarning, {
    code: 'thinking-blocks-dropped',
    message: `anthropic adapter: the answer had ${count} more thinking block(s) than the IR keeps (one thinking, one redacted); dropped`,
  });
}
