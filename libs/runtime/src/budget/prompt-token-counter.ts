/**
 * Counts a prompt's tokens for the context budget: the model adapter's `countTokens` when it
 * has one (a real tokenizer for OpenAI models), else the documented estimate of `@flotilla/ir`.
 * The provider's reported `promptTokens` of the previous turn is fed back as the truth when it
 * is larger than what was counted for that turn's prompt: the difference is added to later
 * counts (ContextChef's "feed" path), until a compaction replaces the prompt it was measured on.
 */
import { estimateTokens, type Message, type ToolDefinition } from '@flotilla/ir';
import type { ModelAdapter } from '../model/model-adapter.js';

export class PromptTokenCounter {
  readonly #model: ModelAdapter;
  readonly #tools: ToolDefinition[] | undefined;
  /** How many tokens the provider reported above our count of the same prompt (never negative). */
  #undercount = 0;

  constructor(model: ModelAdapter, tools: ToolDefinition[] | undefined) {
    this.#model = model;
    this.#tools = tools;
  }

  /** What the provider reported above our count of the last prompt: added to every count until {@link reset}. */
  get undercount(): number {
    return this.#undercount;
  }

  /** The tokenizer's (or estimate's) count, without the correction. */
  async counted(messages: Message[]): Promise<number> {
    const counted = this.#model.countTokens
      ? await this.#model.countTokens(messages, this.#tools)
      : estimateTokens(messages, this.#tools);
    return Number.isFinite(counted) && counted >= 0 ? counted : estimateTokens(messages, this.#tools);
  }

  /** Feeds the provider's `promptTokens` for a prompt we counted as `counted`. */
  report(counted: number, promptTokens: number): void {
    if (Number.isFinite(promptTokens)) this.#undercount = Math.max(0, promptTokens - counted);
  }

  /** The prompt the correction was measured on was replaced (compacted). */
  reset(): void {
    this.#undercount = 0;
  }
}
