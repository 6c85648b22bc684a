import { parseToolArguments } from '../shared/parse-tool-arguments.js';
import { degradePrefill } from '../shared/prefill.js';
import { type ThinkingAsTextOptions, textWithThinking } from '../shared/thinking-as-text.js';
import { TOOL_MEDIA_FOLLOWS_TEXT } from '../shared/tool-media-follows-text.js';
import { toolMessageRunEnd } from '../shared/tool-message-run.js';
import { warnDroppedAttachments } from '../shared/warn-dropped-attachments.js';
import { warnDroppedCompaction } from '../shared/warn-dropped-compaction.js';
import { WarningSink } from '../shared/warning-sink.js';
import type { Message } from '../types/message.js';
import type { CompileContext, CompileMeta, ITargetAdapter, TargetPayload } from '../types/target-adapter.js';
import { collectCallNames, toFunctionResponsePart } from './gemini-function-response.js';
import { toGeminiMediaPart } from './gemini-media-part.js';
import { toGeminiTools } from './gemini-tools.js';
import type { GeminiContent, GeminiPart, GeminiSystemInstruction, GeminiTool } from './gemini-wire.js';
import { type GeminiBuiltContent, mergeGeminiContents } from './merge-gemini-contents.js';

/** Why attachments on non-user messages are dropped (the end of the warning). */
const DROPPED_MEDIA_REASON = 'Gemini takes media only in user turns';

/**
 * What the `gemini` target produces. `messages` is what `generateContent` calls `contents`
 * (rename it when calling the SDK).
 */
export interface GeminiPayload extends TargetPayload {
  messages: GeminiContent[];
  /** Absent when there is no system text. */
  systemInstruction?: GeminiSystemInstruction;
  /** Present only when the compile context had tools. */
  tools?: GeminiTool[];
  meta: CompileMeta;
}

/** Options of {@link GeminiAdapter}. */
export interface GeminiAdapterOptions extends ThinkingAsTextOptions {}

/**
 * Compiles IR into a Gemini `generateContent` payload.
 *
 * - System messages go to `systemInstruction.parts`; a `_positional` one stays in place as user
 *   text. Cache breakpoints (Gemini caches through a separate API), thinking, Anthropic and
 *   OpenAI reasoning are stripped by design (thinking can be kept as text); `redacted_thinking`
 *   is dropped with one `redacted-thinking-dropped` warning per compile.
 * - Assistant → `model`: a text part (carrying `_gemini_thought_signature`), then `functionCall`
 *   parts `{ id, name, args }` with each call's `thoughtSignature`. Only this target emits
 *   Gemini signatures.
 * - A run of tool messages → one user content of `functionResponse` parts `{ id, name,
 *   response }`; media in those results follows as a separate user content of `inlineData` /
 *   `fileData` parts (function responses take no media).
 * - A trailing plain assistant (prefill) becomes a `[System Note]` in the last user text (or the
 *   system instruction when there is no user message).
 * - `_anthropic_compaction` is dropped with an `anthropic-compaction-dropped` warning.
 * - Consecutive same-role contents are merged (see {@link mergeGeminiContents}); empty ones are
 *   not sent. Output fields are whitelisted.
 *
 * Never throws on well-typed IR; degradations go to `context.onWarning` (else `console.warn`)
 * and to `meta.warnings`.
 */
export class GeminiAdapter implements ITargetAdapter<GeminiPayload> {
  readonly #options: GeminiAdapterOptions;

  /** @param options `preserveThinkingAsText` @default false */
  constructor(options: GeminiAdapterOptions = {}) {
    this.#options = { ...options };
  }

  compile(messages: Message[], context?: CompileContext): GeminiPayload {
    const sink = new WarningSink('gemini', context);
    warnDroppedCompaction(messages, sink);
    const prepared = degradePrefill(messages, sink, { roles: ['user'] });
    const list = prepared.messages;
    const callNames = collectCallNames(list);
    const system: Array<{ text: string }> = [];
    const contents: GeminiBuiltContent[] = [];
    for (let index = 0; index < list.length; ) {
      const message = list[index]!;
      if (message.role === 'tool') {
        const end = toolMessageRunEnd(list, index);
        contents.push(...toolRun(list, index, end, callNames, sink));
        index = end;
        continue;
      }
      if (message.role === 'system' && !message._positional) {
        warnDroppedAttachments(message, index, sink, DROPPED_MEDIA_REASON);
        if (message.content !== '') system.push({ text: message.content });
      } else {
        contents.push(this.#content(message, index, sink));
      }
      index++;
    }
    if (prepared.unplacedInstruction) system.push({ text: prepared.unplacedInstruction });
    const nonEmpty = contents.filter((content) => content.parts.length > 0);
    const payload: GeminiPayload = {
      messages: mergeGeminiContents(nonEmpty),
      meta: { warnings: sink.warnings },
    };
    if (system.length > 0) payload.systemInstruction = { parts: system };
    if (context?.tools && context.tools.length > 0) payload.tools = toGeminiTools(context.tools, sink);
    return payload;
  }

  #content(message: Message, index: number, sink: WarningSink): GeminiBuiltContent {
    if (message.role === 'assistant') return { role: 'model', parts: this.#modelParts(message, index, sink) };
    const parts: GeminiPart[] = message.content === '' ? [] : [{ text: message.content }];
    for (const attachment of message.attachments ?? [])
      parts.push(toGeminiMediaPart(attachment, sink, index));
    return { role: 'user', parts };
  }

  #modelParts(message: Message, index: number, sink: WarningSink): GeminiPart[] {
    warnDroppedAttachments(message, index, sink, DROPPED_MEDIA_REASON);
    const parts: GeminiPart[] = [];
    const text = textWithThinking(message, index, this.#options, sink);
    const signature = message._gemini_thought_signature;
    // An empty text part is still sent when it carries a signature: Gemini signs such parts.
    if (text !== '' || signature) parts.push(signature ? { text, thoughtSignature: signature } : { text });
    for (const call of message.tool_calls ?? []) {
      const args = parseToolArguments(call.function.arguments, sink, index, call.id);
      const part: GeminiPart = { functionCall: { id: call.id, name: call.function.name, args } };
      if (call.thoughtSignature) part.thoughtSignature = call.thoughtSignature;
      parts.push(part);
    }
    return parts;
  }
}

/** One content with the function responses of `list[start..end)`, then one with their media. */
function toolRun(
  list: Message[],
  start: number,
  end: number,
  callNames: Map<string, string>,
  sink: WarningSink,
): GeminiBuiltContent[] {
  const responses: GeminiPart[] = [];
  const media: GeminiPart[] = [];
  for (let index = start; index < end; index++) {
    const message = list[index]!;
    const attachments = message.attachments ?? [];
    for (const attachment of attachments) media.push(toGeminiMediaPart(attachment, sink, index));
    const text = message.content === '' && attachments.length > 0 ? TOOL_MEDIA_FOLLOWS_TEXT : message.content;
    responses.push(toFunctionResponsePart(message, callNames, text));
  }
  const contents: GeminiBuiltContent[] = [{ role: 'user', parts: responses, holdsFunctionResponses: true }];
  if (media.length > 0) contents.push({ role: 'user', parts: media });
  return contents;
}
