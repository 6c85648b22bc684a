import type { CompileWarning } from '@flotilla/ir';
import type OpenAI from 'openai';
import type { LimitOptions } from '../shared/limit-options.js';
import type { RetryOptions } from '../shared/retry-policy.js';

/** Options of {@link createOpenAIAdapter}. Retry options: see {@link RetryOptions}; fleet-wide `limits`: see {@link LimitOptions}. */
export interface OpenAIModelAdapterOptions extends RetryOptions, LimitOptions {
  /** The model, e.g. `gpt-4.1-mini`; sent as `model`. `createOpenAIAdapter` also takes it as `modelId` (the seed API's name). */
  model: string;
  /** The adapter id recorded in events and conversation headers. @default model */
  id?: string;
  /** The provider name recorded with the model; set it for OpenAI-compatible servers. @default 'openai' */
  provider?: string;
  /** A ready client; `apiKey`, `baseURL` and `timeoutMs` are then ignored. Its own retries are turned off per request. */
  client?: OpenAI;
  /** @default process.env.OPENAI_API_KEY (creation throws `MissingApiKeyError` when neither is set) */
  apiKey?: string;
  /** Any OpenAI-compatible endpoint. @default process.env.OPENAI_BASE_URL, else https://api.openai.com/v1 */
  baseURL?: string;
  /** Per-attempt timeout in milliseconds. @default the SDK's (10 minutes) */
  timeoutMs?: number;
  /** `chat` = Chat Completions; `responses` = the Responses API (reasoning items kept across turns). @default 'chat' */
  api?: 'chat' | 'responses';
  /** Sampling temperature; not sent when unset. */
  temperature?: number;
  /** Output token limit: `max_completion_tokens` (chat) / `max_output_tokens` (responses); not sent when unset. */
  maxTokens?: number;
  /** Reasoning effort of reasoning models: `reasoning_effort` (chat) / `reasoning.effort` (responses). */
  reasoningEffort?: 'none' | 'minimal' | 'low' | 'medium' | 'high';
  /** Whether structured output uses strict JSON-schema mode. @default true */
  strictSchema?: boolean;
  /**
   * Extra request-body fields (e.g. `{ store: false, include: ['reasoning.encrypted_content'] }`
   * for stateless Responses reasoning). Fields the adapter sets (model, messages/input, tools,
   * schema, streaming) win over these.
   */
  extraBody?: Record<string, unknown>;
  /**
   * Merge consecutive messages of one role (not tool results) before sending, for
   * OpenAI-compatible backends that require strict user/assistant alternation. Chat
   * Completions only. @default false
   */
  mergeConsecutiveSameRole?: boolean;
  /** Receives what the IR target had to degrade (dropped media, prefill …). @default console.warn */
  onWarning?: (warning: CompileWarning) => void;
}
