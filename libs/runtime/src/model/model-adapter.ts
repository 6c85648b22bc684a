/**
 * The contract between the runtime and a model provider — Flotilla's `LanguageModelV4`.
 *
 * The runtime hands an adapter IR messages (system messages included, in order), the tools
 * the agent equipped and, for structured output, a JSON Schema; the adapter compiles them with
 * an `@flotilla/ir` target, calls its provider and answers with one IR assistant message plus
 * usage. Streaming is optional: an adapter that streams reports deltas through `onDelta` and
 * still resolves with the complete message.
 */
import type { FinishReason, Message, TokenUsage, ToolDefinition } from '@flotilla/ir';
import type { ModelLimits } from './model-limits.js';

export type ToolChoice = 'auto' | 'none' | 'required' | { type: 'function'; function: { name: string } };

/** A JSON Schema the final answer must satisfy (from `promptAgent(zodSchema)`). */
export interface OutputSchema {
  /** A short identifier some providers require, e.g. `"result"`. */
  name: string;
  jsonSchema: Record<string, unknown>;
}

export interface ModelRequest {
  messages: Message[];
  tools?: ToolDefinition[];
  toolChoice?: ToolChoice;
  schema?: OutputSchema;
  signal?: AbortSignal;
  /** Streaming consumer; when present the adapter should stream and report each delta. */
  onDelta?: (delta: ModelDelta) => void;
  /**
   * The fleet-wide budget of this provider/model, when it has `limits` (set by the runtime,
   * which acquires it before the first attempt). An adapter that retries acquires it again
   * before each retry and pauses it on a 429 instead of sleeping on its own.
   */
  budget?: ModelBudget;
}

/** A provider/model's fleet-wide budget as one model call sees it (see `ModelRequest.budget`). */
export interface ModelBudget {
  /** Waits (without failing) until the fleet's budget lets one more request go. */
  acquire(): Promise<void>;
  /** The provider answered 429: pauses the budget for the whole fleet for `retryAfterMs`. */
  pause(retryAfterMs: number): Promise<void>;
}

export type ModelDelta =
  | { type: 'text-delta'; text: string }
  | { type: 'reasoning-delta'; text: string }
  | { type: 'tool-call-delta'; index: number; id?: string; name?: string; argumentsDelta?: string };

export interface ModelResponse {
  /** The assistant turn in IR: text in `content`, calls in `tool_calls`, provider passthrough kept. */
  message: Message & { role: 'assistant' };
  usage: TokenUsage;
  finishReason: FinishReason;
}

export interface ModelAdapter {
  /** The model id, e.g. `gpt-4.1-mini`; recorded in events and the conversation header. */
  readonly id: string;
  /** The provider, e.g. `openai`, `gemini`, `mock`. */
  readonly provider: string;
  /**
   * Requests and tokens per minute for this provider/model, shared by every worker of the fleet
   * (a worker's `modelLimits` table can give them too). Calls wait for the budget instead of
   * failing. @default none
   */
  readonly limits?: ModelLimits;
  generate(request: ModelRequest): Promise<ModelResponse>;
  /**
   * The prompt tokens a request with `messages` and `tools` would cost on this model, for the
   * context budget (`equipContextBudget`). Must be deterministic (a replay decides the same).
   * Optional: without it the runtime uses `estimateTokens` from `@flotilla/ir` (4 characters a
   * token, attachments at a fixed weight). Either way, a provider's reported `promptTokens` of
   * the previous turn wins when it is larger.
   */
  countTokens?(messages: Message[], tools?: ToolDefinition[]): number | Promise<number>;
  /**
   * The integer costs of one call's usage per billing unit, e.g. `{ micro_usd: 1200 }` (the seed's
   * hook). Used when no `equipBudget({ prices })` entry names this model; `micro_usd` counts
   * against `maxCostMicroUsd`. Values must be finite non-negative integers
   * (`InvalidCostValueError`). @default no costs
   */
  calculateCost?(usage: TokenUsage): Record<string, number>;
}
