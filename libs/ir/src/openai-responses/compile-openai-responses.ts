import { degradePrefill, isPlainAssistant } from '../shared/prefill.js';
import { reportRedactedThinking } from '../shared/thinking-as-text.js';
import { TOOL_MEDIA_FOLLOWS_TEXT } from '../shared/tool-media-follows-text.js';
import { toolMessageRunEnd } from '../shared/tool-message-run.js';
import { warnDroppedAttachments } from '../shared/warn-dropped-attachments.js';
import { warnDroppedCompaction } from '../shared/warn-dropped-compaction.js';
import { WarningSink } from '../shared/warning-sink.js';
import type { Message } from '../types/message.js';
import type { CompileContext, CompileMeta, ITargetAdapter, TargetPayload } from '../types/target-adapter.js';
import type {
  ResponsesFunctionTool,
  ResponsesInputContentPart,
  ResponsesInputItem,
  ResponsesReasoningItem,
} from './openai-responses-wire.js';
import { toResponsesContentPart } from './responses-content-part.js';
import { toResponsesTools } from './responses-tools.js';

/** Why attachments on non-user messages are dropped (the end of the warning). */
const DROPPED_MEDIA_REASON = 'the Responses API takes media only in user input';

/**
 * What the `openai-responses` target produces: the arguments of `responses.create`.
 * `input` may also hold raw items carried in `_openai_reasoning` / `_openai_responses_items`.
 */
export interface OpenAIResponsesPayload extends TargetPayload {
  /** The system messages joined with a blank line; absent when there are none. */
  instructions?: string;
  input: Array<ResponsesInputItem | ResponsesReasoningItem | Record<string, unknown>>;
  /** Present only when the compile context had tools. */
  tools?: ResponsesFunctionTool[];
  meta: CompileMeta;
}

/**
 * Compiles IR into an OpenAI Responses API payload.
 *
 * - System messages are joined with `\n\n` into `instructions`; a `_positional` one stays in
 *   place as a `system` message item.
 * - Assistant: its `_openai_reasoning` items, then its `_openai_responses_items`, both re-emitted
 *   by reference (byte-identical, e.g. `encrypted_content`); then a message item with
 *   `output_text` (unless it is empty and the turn has calls or reasoning); then one
 *   `function_call` item per call (`call_id` = the ToolCall id). Thinking, cache breakpoints
 *   and Gemini signatures are stripped by design; `redacted_thinking` is dropped with one
 *   `redacted-thinking-dropped` warning per compile.
 * - Tool results become `function_call_output` items with the text. Decision: although the
 *   API also takes a list of parts as output, media is split like the Chat Completions target,
 *   into one user message of `input_image` / `input_file` parts after the run of outputs, so
 *   `output` stays the plain text the IR stores and every model that takes text outputs works.
 * - User: `input_text` (when there is text or no media) followed by media parts.
 * - `_anthropic_compaction` is dropped with an `anthropic-compaction-dropped` warning.
 * - A trailing assistant without calls or reasoning (a prefill) becomes a `[System Note]` in the
 *   last user text, or in `instructions` when there is no user message.
 * - Output fields are whitelisted: nothing else of a message reaches the payload.
 *
 * Never throws on well-typed IR; degradations go to `context.onWarning` (else `console.warn`)
 * and to `meta.warnings`.
 */
export class OpenAIResponsesAdapter implements ITargetAdapter<OpenAIResponsesPayload> {
  compile(messages: Message[], context?: CompileContext): OpenAIResponsesPayload {
    const sink = new WarningSink('openai-responses', context);
    warnDroppedCompaction(messages, sink);
    const prepared = degradePrefill(messages, sink, { roles: ['user'], isPrefill: isResponsesPrefill });
    const list = prepared.messages;
    const instructions: string[] = [];
    const input: OpenAIResponsesPayload['input'] = [];
    for (let index = 0; index < list.length; ) {
      const message = list[index]!;
      if (message.role === 'tool') {
        const end = toolMessageRunEnd(list, index);
        input.push(...toolRun(list, index, end, sink));
        index = end;
        continue;
      }
      if (message.role === 'system' && !message._positional) {
        warnDroppedAttachments(message, index, sink, DROPPED_MEDIA_REASON);
        if (message.content !== '') instructions.push(message.content);
      } else if (message.role === 'assistant') {
        input.push(...assistantItems(message, index, sink));
      } else {
        input.push(inputMessage(message, index, sink));
      }
      index++;
    }
    if (prepared.unplacedInstruction) instructions.push(prepared.unplacedInstruction);
    const payload: OpenAIResponsesPayload = { input, meta: { warnings: sink.warnings } };
    if (instructions.length > 0) payload.instructions = instructions.join('\n\n');
    if (context?.tools && context.tools.length > 0) payload.tools = toResponsesTools(context.tools);
    return payload;
  }
}

/** A reasoning-only stub or a turn with hosted-tool items is a real turn, not a prefill. */
function isResponsesPrefill(message: Message): boolean {
  return (
    isPlainAssistant(message) &&
    !hasItems(message._openai_reasoning) &&
    !hasItems(message._openai_responses_items)
  );
}

function hasItems(value: unknown): value is Array<Record<string, unknown>> {
  return Array.isArray(value) && value.length > 0;
}

function assistantItems(message: Message, index: number, sink: WarningSink): OpenAIResponsesPayload['input'] {
  warnDroppedAttachments(message, index, sink, DROPPED_MEDIA_REASON);
  reportRedactedThinking(message, index, sink);
  const items: OpenAIResponsesPayload['input'] = [];
  const carried = [message._openai_reasoning, message._openai_responses_items].filter(hasItems);
  for (const list of carried) items.push(...list);
  const calls = message.tool_calls ?? [];
  if (message.content !== '' || (calls.length === 0 && carried.length === 0)) {
    items.push({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: message.content }],
    });
  }
  for (const call of calls) {
    items.push({
      type: 'function_call',
      call_id: call.id,
      name: call.function.name,
      arguments: call.function.arguments,
    });
  }
  return items;
}

/** A user message, or a positional system message kept in place. */
function inputMessage(message: Message, index: number, sink: WarningSink): ResponsesInputItem {
  const attachments = message.attachments ?? [];
  const content: ResponsesInputContentPart[] =
    message.content !== '' || attachments.length === 0 ? [{ type: 'input_text', text: message.content }] : [];
  for (const attachment of attachments) content.push(toResponsesContentPart(attachment, sink, index));
  return { type: 'message', role: message.role === 'system' ? 'system' : 'user', content };
}

/** `function_call_output` items of `list[start..end)`, then one user message with their media. */
function toolRun(list: Message[], start: number, end: number, sink: WarningSink): ResponsesInputItem[] {
  const items: ResponsesInputItem[] = [];
  const media: ResponsesInputContentPart[] = [];
  for (let index = start; index < end; index++) {
    const message = list[index]!;
    const attachments = message.attachments ?? [];
    for (const attachment of attachments) media.push(toResponsesContentPart(attachment, sink, index));
    const output =
      message.content === '' && attachments.length > 0 ? TOOL_MEDIA_FOLLOWS_TEXT : message.content;
    items.push({ type: 'function_call_output', call_id: message.tool_call_id ?? '', output });
  }
  if (media.length > 0) items.push({ type: 'message', role: 'user', content: media });
  return items;
}
