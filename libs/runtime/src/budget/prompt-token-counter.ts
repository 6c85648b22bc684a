/**
 * Counts a prompt's tokens for the context budget: the model adapter's `countTokens` when it
 * has one (a real tokenizer for OpenAI models), else the documented estimate of `@flotilla/ir`.
 * The provider's reported `promptTokens` of the previous turn is fed back as the truth when it
 * is larger than what was counted for that turn's prompt (ContextChef's "feed" path): later
 * counts are scaled by reported / counted, so the same prompt counts exactly what the provider
 * said, and a compacted one proportionally less. Deterministic on replay: the reported usage
 * of a replayed turn comes from the journal.
 */
import { estimateTokens, type Message, type ToolDefinition } from '@flotilla/ir';
import type { ModelAdapter } from '../model/model-adapter.js';

export class PromptTokenCounter {
  readonly #model: ModelAdapter;
  readonly #tools: ToolDefinition[] | undefined;
  /** reported / counted of the last prompt when the provider reported more (else 1). */
  #factor = 1;

  constructor(model: ModelAdapter, tools: ToolDefinition[] | undefined) {
    this.#model = model;
    this.#tools = tools;
  }

  /** The tokens `counted` (from {@link counted}) stand for, after what the provider reported. */
  corrected(counted: number): number {
    return Math.ceil(counted * this.#factor);
  }

  /** The tokenizer's (or estimate's) count of `messages` with the turn's tools, uncorrected. */
  async counted(messages: Message[]): Promise<number> {
    const counted = this.#model.countTokens
      ? await this.#model.countTokens(messages, this.#tools)
      : estimateTokens(messages, this.#tools);
    return Number.isFinite(counted) && counted >= 0 ? counted : estimateTokens(messages, this.#tools);
  }

  /** Feeds the provider's `promptTokens` for a prompt we counted as `counted`. */
  report(counted: number, promptTokens: number): void {
    if (!Number.isFinite(promptTokens) || counted <= 0) return;
    this.#factor = Math.max(1, promptTokens / counted);
  }
}
