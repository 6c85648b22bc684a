import { degradePrefill } from '../shared/prefill.js';
import { type ThinkingAsTextOptions, textWithThinking } from '../shared/thinking-as-text.js';
import { TOOL_MEDIA_FOLLOWS_TEXT } from '../shared/tool-media-follows-text.js';
import { toolMessageRunEnd } from '../shared/tool-message-run.js';
import { warnDroppedAttachments } from '../shared/warn-dropped-attachments.js';
import { warnDroppedCompaction } from '../shared/warn-dropped-compaction.js';
import { WarningSink } from '../shared/warning-sink.js';
import type { Message } from '../types/message.js';
import type { CompileContext, CompileMeta, ITargetAdapter, TargetPayload } from '../types/target-adapter.js';
import { toOpenAIContentPart } from './openai-attachment-part.js';
import { toOpenAITools } from './openai-tools.js';
import type {
  OpenAIAssistantMessageParam,
  OpenAIChatMessageParam,
  OpenAIFunctionTool,
  OpenAIUserContentPart,
} from './openai-wire.js';

/** Why attachments on non-user messages are dropped (the end of the warning). */
const DROPPED_MEDIA_REASON = 'only user messages take media';

/** What the `openai` target produces: the arguments of `chat.completions.create`. */
export interface OpenAIPayload extends TargetPayload {
  messages: OpenAIChatMessageParam[];
  /** Present only when the compile context had tools. */
  tools?: OpenAIFunctionTool[];
  meta: CompileMeta;
}

/** Options of {@link OpenAIAdapter}. */
export interface OpenAIAdapterOptions extends ThinkingAsTextOptions {}

/**
 * Compiles IR into an OpenAI Chat Completions payload.
 *
 * - System messages stay inline, in order. Cache breakpoints, thinking, `_openai_reasoning` and
 *   Gemini signatures are stripped by design (thinking can be kept as text, see
 *   {@link ThinkingAsTextOptions}); `redacted_thinking` is dropped with one
 *   `redacted-thinking-dropped` warning per compile.
 * - A trailing assistant message without tool calls (a prefill) becomes a `[System Note]`
 *   instruction at the end of the last user (or system) text.
 * - `name` on user, system and assistant messages is sent as the participant `name`.
 * - Tool results become `tool` messages. Tool messages take only text, so media in a tool
 *   result is moved into one user message right after the run of tool messages (the tool
 *   message then says {@link TOOL_MEDIA_FOLLOWS_TEXT} when it had no text).
 * - Attachments on user messages become content parts (see `toOpenAIContentPart`); on system
 *   and assistant messages they are dropped with an `attachment-unsupported` warning.
 * - `_anthropic_compaction` is dropped with an `anthropic-compaction-dropped` warning.
 * - Output fields are whitelisted: nothing else of a message reaches the payload.
 *
 * Never throws on well-typed IR; degradations go to `context.onWarning` (else `console.warn`)
 * and to `meta.warnings`.
 */
export class OpenAIAdapter implements ITargetAdapter<OpenAIPayload> {
  readonly #options: OpenAIAdapterOptions;

  /** @param options `preserveThinkingAsText` @default false */
  constructor(options: OpenAIAdapterOptions = {}) {
    this.#options = { ...options };
  }

  compile(messages: Message[], context?: CompileContext): OpenAIPayload {
    const sink = new WarningSink('openai', context);
    warnDroppedCompaction(messages, sink);
    const prepared = degradePrefill(messages, sink, { roles: ['user', 'system'] });
    const output: OpenAIChatMessageParam[] = [];
    if (prepared.unplacedInstruction) output.push({ role: 'system', content: prepared.unplacedInstruction });
    const list = prepared.messages;
    for (let index = 0; index < list.length; ) {
      if (list[index]!.role === 'tool') {
        const end = toolMessageRunEnd(list, index);
        output.push(...this.#toolRun(list, index, end, sink));
        index = end;
      } else {
        output.push(this.#message(list[index]!, index, sink));
        index++;
      }
    }
    const payload: OpenAIPayload = { messages: output, meta: { warnings: sink.warnings } };
    if (context?.tools && context.tools.length > 0) payload.tools = toOpenAITools(context.tools);
    return payload;
  }

  #message(message: Message, index: number, sink: WarningSink): OpenAIChatMessageParam {
    switch (message.role) {
      case 'user':
        return withName({ role: 'user', content: userContent(message, index, sink) }, message);
      case 'assistant':
        return withName(this.#assistant(message, index, sink), message);
      default:
        warnDroppedAttachments(message, index, sink, DROPPED_MEDIA_REASON);
        return withName({ role: 'system', content: message.content }, message);
    }
  }

  #assistant(message: Message, index: number, sink: WarningSink): OpenAIAssistantMessageParam {
    warnDroppedAttachments(message, index, sink, DROPPED_MEDIA_REASON);
    const result: OpenAIAssistantMessageParam = {
      role: 'assistant',
      content: textWithThinking(message, index, this.#options, sink),
    };
    if (message.tool_calls && message.tool_calls.length > 0) {
      result.tool_calls = message.tool_calls.map((call) => ({
        id: call.id,
        type: 'function',
        function: { name: call.function.name, arguments: call.function.arguments },
      }));
    }
    return result;
  }

  /** Tool messages of `list[start..end)`, then one user message with all their media. */
  #toolRun(list: Message[], start: number, end: number, sink: WarningSink): OpenAIChatMessageParam[] {
    const output: OpenAIChatMessageParam[] = [];
    const media: OpenAIUserContentPart[] = [];
    for (let index = start; index < end; index++) {
      const message = list[index]!;
      const attachments = message.attachments ?? [];
      for (const attachment of attachments) media.push(toOpenAIContentPart(attachment, sink, index));
      const content =
        message.content === '' && attachments.length > 0 ? TOOL_MEDIA_FOLLOWS_TEXT : message.content;
      output.push({ role: 'tool', tool_call_id: message.tool_call_id ?? '', content });
    }
    if (media.length > 0) output.push({ role: 'user', content: media });
    return output;
  }
}

/** The participant name, on the roles that take one (tool messages have none on the wire). */
function withName<Param extends OpenAIChatMessageParam>(param: Param, message: Message): Param {
  return message.name === undefined ? param : { ...param, name: message.name };
}

function userContent(message: Message, index: number, sink: WarningSink): string | OpenAIUserContentPart[] {
  const attachments = message.attachments ?? [];
  if (attachments.length === 0) return message.content;
  const parts: OpenAIUserContentPart[] =
    message.content === '' ? [] : [{ type: 'text', text: message.content }];
  for (const attachment of attachments) parts.push(toOpenAIContentPart(attachment, sink, index));
  return parts;
}
