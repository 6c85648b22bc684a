import type { Message, ToolCall } from '@flotilla/ir';
import type { ModelDelta, ModelResponse } from '@flotilla/runtime';
import type { GenerateContentResponse, Part } from '@google/genai';
import { toolArgumentsText } from '../shared/tool-arguments-text.js';
import { convertGeminiUsage } from './convert-gemini-usage.js';
import { mapGeminiFinishReason } from './map-gemini-finish-reason.js';

/**
 * Builds one IR answer from Gemini responses: a one-shot response is a single chunk, a stream
 * is many. Text parts are concatenated; `thought: true` parts are reasoning (reported as
 * reasoning deltas and kept in `thinking`, unsigned, as `fromGemini` does); each
 * `functionCall` becomes a tool call whose `thoughtSignature` is kept on the IR call; the
 * signature of the last signed other part is kept in `_gemini_thought_signature`. The latest usage and finish reason win. Missing call ids get
 * `<responseId or random>-<n>` so tool results can still be matched to their calls.
 */
export class GeminiResponseAccumulator {
  private text = '';
  private thoughts = '';
  private readonly toolCalls: ToolCall[] = [];
  private textSignature: string | undefined;
  private finishReason: string | undefined;
  private blockReason: string | undefined;
  private usage: GenerateContentResponse['usageMetadata'];
  private responseId: string | undefined;
  private readonly fallbackId = crypto.randomUUID().slice(0, 8);

  constructor(private readonly onDelta?: (delta: ModelDelta) => void) {}

  /** Adds one response (or stream chunk). */
  add(chunk: GenerateContentResponse): void {
    this.responseId ??= chunk.responseId;
    if (chunk.usageMetadata) this.usage = chunk.usageMetadata;
    if (chunk.promptFeedback?.blockReason) this.blockReason = chunk.promptFeedback.blockReason;
    const candidate = chunk.candidates?.[0];
    if (candidate?.finishReason) this.finishReason = candidate.finishReason;
    const parts: unknown = candidate?.content?.parts;
    // A malformed answer never throws a bare TypeError here; the runtime checks what comes out.
    if (Array.isArray(parts)) for (const part of parts) if (part) this.addPart(part as Part);
  }

  /** The complete IR answer. */
  result(): ModelResponse {
    const message: Message & { role: 'assistant' } = { role: 'assistant', content: this.text };
    if (this.toolCalls.length > 0) message.tool_calls = this.toolCalls;
    if (this.thoughts !== '') message.thinking = { thinking: this.thoughts };
    if (this.textSignature !== undefined) message._gemini_thought_signature = this.textSignature;
    const finishReason = this.blockReason
      ? { unified: 'content_filter' as const, raw: this.blockReason }
      : mapGeminiFinishReason(this.finishReason, this.toolCalls.length > 0);
    return { message, usage: convertGeminiUsage(this.usage), finishReason };
  }

  private addPart(part: Part): void {
    if (part.functionCall) {
      this.addFunctionCall(part);
      return;
    }
    if (part.thoughtSignature !== undefined) this.textSignature = part.thoughtSignature;
    if (part.text === undefined || part.text === '') return;
    if (part.thought) {
      this.thoughts += part.text;
      this.onDelta?.({ type: 'reasoning-delta', text: part.text });
      return;
    }
    this.text += part.text;
    this.onDelta?.({ type: 'text-delta', text: part.text });
  }

  private addFunctionCall(part: Part): void {
    const index = this.toolCalls.length;
    const call = part.functionCall ?? {};
    const toolCall: ToolCall = {
      id: call.id || `${this.responseId ?? this.fallbackId}-${index}`,
      type: 'function',
      function: { name: call.name ?? '', arguments: toolArgumentsText(call.args ?? {}, 'gemini') },
    };
    if (part.thoughtSignature !== undefined) toolCall.thoughtSignature = part.thoughtSignature;
    this.toolCalls.push(toolCall);
    this.onDelta?.({
      type: 'tool-call-delta',
      index,
      id: toolCall.id,
      name: toolCall.function.name,
      argumentsDelta: toolCall.function.arguments,
    });
  }
}
