import { parseToolArguments } from '../shared/parse-tool-arguments.js';
import { warnDroppedAttachments } from '../shared/warn-dropped-attachments.js';
import { WarningSink } from '../shared/warning-sink.js';
import type { Message } from '../types/message.js';
import type { CompileContext, CompileMeta, ITargetAdapter, TargetPayload } from '../types/target-adapter.js';
import { limitCacheBreakpoints, markCacheBreakpoint } from './anthropic-cache-control.js';
import { toAnthropicMediaBlock } from './anthropic-media-block.js';
import { toAnthropicTools } from './anthropic-tools.js';
import type {
  AnthropicContentBlock,
  AnthropicMessageParam,
  AnthropicTextBlock,
  AnthropicTool,
  AnthropicToolResultBlock,
} from './anthropic-wire.js';
import { type AnthropicTurn, mergeAnthropicTurns } from './merge-anthropic-turns.js';

/** Why attachments on non-user messages are dropped (the end of the warning). */
const DROPPED_MEDIA_REASON = 'Anthropic takes media only in user turns';

/** What the `anthropic` target produces: the arguments of `messages.create`. */
export interface AnthropicPayload extends TargetPayload {
  /** Absent when there is no system text. */
  system?: AnthropicTextBlock[];
  messages: AnthropicMessageParam[];
  /** Present only when the compile context had tools. */
  tools?: AnthropicTool[];
  meta: CompileMeta;
}

/**
 * Compiles IR into an Anthropic Messages API payload.
 *
 * - System messages are hoisted into `system` text blocks, in order; a `_positional` system
 *   message stays in place as user text.
 * - `_cache_breakpoint` puts `cache_control: { type: 'ephemeral' }` on the message's last block
 *   (system text, text, media, `tool_use` or `tool_result`); at most 4 are kept.
 * - Assistant messages: signed `thinking` and `redacted_thinking` blocks first, then the text
 *   (empty text is not emitted), then `tool_use` blocks with parsed input. Attachments on
 *   assistant messages are dropped with a warning (the API takes media only from the user).
 * - `_anthropic_compaction` is sent back as the `compaction` block it came from, first in its
 *   message (the other targets drop it with a warning).
 * - Tool results become `tool_result` blocks in a user message, media included natively;
 *   `_tool_error` becomes `is_error: true`.
 * - Consecutive messages of the same role are merged (the API wants alternating turns), and a
 *   message left with no blocks is not sent.
 * - A trailing assistant message is a native prefill; its trailing whitespace, which the API
 *   rejects, is trimmed.
 * - Output fields are whitelisted: nothing else of a message reaches the payload.
 *
 * Never throws on well-typed IR; degradations go to `context.onWarning` (else `console.warn`)
 * and to `meta.warnings`.
 */
export class AnthropicAdapter implements ITargetAdapter<AnthropicPayload> {
  compile(messages: Message[], context?: CompileContext): AnthropicPayload {
    const sink = new WarningSink('anthropic', context);
    const system: AnthropicTextBlock[] = [];
    const turns: AnthropicTurn[] = [];
    messages.forEach((message, index) => {
      if (message.role === 'system' && !message._positional) {
        system.push(...systemBlocks(message, index, sink));
        return;
      }
      const turn = toTurn(message, index, sink);
      if (turn.content.length === 0) return;
      if (message._cache_breakpoint) markCacheBreakpoint(turn.content);
      turns.push(turn);
    });
    const merged = mergeAnthropicTurns(turns);
    limitCacheBreakpoints(
      system,
      merged.flatMap((turn) => turn.content),
      sink,
    );
    trimTrailingPrefill(merged, sink, messages.length - 1);
    const payload: AnthropicPayload = { messages: merged, meta: { warnings: sink.warnings } };
    if (system.length > 0) payload.system = system;
    if (context?.tools && context.tools.length > 0) payload.tools = toAnthropicTools(context.tools);
    return payload;
  }
}

function systemBlocks(message: Message, index: number, sink: WarningSink): AnthropicTextBlock[] {
  warnDroppedAttachments(message, index, sink, DROPPED_MEDIA_REASON);
  if (message.content === '') return [];
  const block: AnthropicTextBlock = { type: 'text', text: message.content };
  if (message._cache_breakpoint) block.cache_control = { type: 'ephemeral' };
  return [block];
}

function toTurn(message: Message, index: number, sink: WarningSink): AnthropicTurn {
  switch (message.role) {
    case 'assistant':
      return {
        role: 'assistant',
        content: [...compactionBlocks(message), ...assistantBlocks(message, index, sink)],
      };
    case 'tool':
      return { role: 'user', content: [toolResultBlock(message, index, sink)] };
    default:
      return { role: 'user', content: [...compactionBlocks(message), ...userBlocks(message, index, sink)] };
  }
}

/**
 * The server-side compaction block, first: the API ignores every block before it, so nothing
 * of this message may precede it.
 */
function compactionBlocks(message: Message): AnthropicContentBlock[] {
  const summary = message._anthropic_compaction;
  return summary === undefined ? [] : [{ type: 'compaction', content: summary }];
}

function userBlocks(message: Message, index: number, sink: WarningSink): AnthropicContentBlock[] {
  const blocks: AnthropicContentBlock[] =
    message.content === '' ? [] : [{ type: 'text', text: message.content }];
  for (const attachment of message.attachments ?? [])
    blocks.push(toAnthropicMediaBlock(attachment, sink, index));
  return blocks;
}

function assistantBlocks(message: Message, index: number, sink: WarningSink): AnthropicContentBlock[] {
  const blocks: AnthropicContentBlock[] = [];
  if (message.thinking?.signature) {
    blocks.push({
      type: 'thinking',
      thinking: message.thinking.thinking,
      signature: message.thinking.signature,
    });
  } else if (message.thinking) {
    sink.warn(
      'thinking-unsigned-dropped',
      'thinking without a signature (not produced by Anthropic) is rejected by the API; dropped',
      index,
    );
  }
  if (message.redacted_thinking)
    blocks.push({ type: 'redacted_thinking', data: message.redacted_thinking.data });
  if (message.content !== '') blocks.push({ type: 'text', text: message.content });
  warnDroppedAttachments(message, index, sink, DROPPED_MEDIA_REASON);
  for (const call of message.tool_calls ?? []) {
    const input = parseToolArguments(call.function.arguments, sink, index, call.id);
    blocks.push({ type: 'tool_use', id: call.id, name: call.function.name, input });
  }
  return blocks;
}

function toolResultBlock(message: Message, index: number, sink: WarningSink): AnthropicToolResultBlock {
  const block: AnthropicToolResultBlock = { type: 'tool_result', tool_use_id: message.tool_call_id ?? '' };
  const attachments = message.attachments ?? [];
  if (attachments.length === 0) {
    block.content = message.content;
  } else {
    const text: AnthropicTextBlock[] =
      message.content === '' ? [] : [{ type: 'text', text: message.content }];
    block.content = [
      ...text,
      ...attachments.map((attachment) => toAnthropicMediaBlock(attachment, sink, index)),
    ];
  }
  if (message._tool_error) block.is_error = true;
  return block;
}

/** The API rejects a final assistant turn ending in whitespace: trim it (and drop what empties). */
function trimTrailingPrefill(turns: AnthropicTurn[], sink: WarningSink, messageIndex: number): void {
  const last = turns.at(-1);
  const block = last?.content.at(-1);
  if (last?.role !== 'assistant' || block?.type !== 'text') return;
  const trimmed = block.text.trimEnd();
  if (trimmed === block.text) return;
  sink.warn(
    'prefill-whitespace-trimmed',
    'trailing whitespace of the prefill removed (the API rejects it)',
    messageIndex,
  );
  if (trimmed !== '') block.text = trimmed;
  else last.content.pop();
  if (last.content.length === 0) turns.pop();
}
