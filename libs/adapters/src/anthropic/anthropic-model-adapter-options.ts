import type Anthropic from '@anthropic-ai/sdk';
import type { ThinkingConfigParam } from '@anthropic-ai/sdk/resources/messages';
import type { CompileWarning } from '@flotilla/ir';
import type { LimitOptions } from '../shared/limit-options.js';
import type { RetryOptions } from '../shared/retry-policy.js';

/** Options of {@link createAnthropicAdapter}. Retry options: see {@link RetryOptions}; fleet-wide `limits`: see {@link LimitOptions}. */
export interface AnthropicModelAdapterOptions extends RetryOptions, LimitOptions {
  /** The model, e.g. `claude-sonnet-4-5`; sent as `model`. Also accepted as `modelId` (the seed API's name). */
  model: string;
  /** The adapter id recorded in events and conversation headers. @default model */
  id?: string;
  /** A ready client; `apiKey`, `baseURL` and `timeoutMs` are then ignored. Its own retries are turned off per request. */
  client?: Anthropic;
  /** @default process.env.ANTHROPIC_API_KEY (creation throws `MissingApiKeyError` when neither is set) */
  apiKey?: string;
  /** Another endpoint (a proxy, a test server). @default process.env.ANTHROPIC_BASE_URL, else the Anthropic API */
  baseURL?: string;
  /** Per-attempt timeout in milliseconds. @default the SDK's (10 minutes) */
  timeoutMs?: number;
  /** `max_tokens`, which the Messages API requires; must exceed a thinking budget. @default 4096 */
  maxTokens?: number;
  /**
   * Extended thinking, sent as `thinking` (`{ type: 'enabled', budget_tokens }` or
   * `{ type: 'adaptive' }`). Thinking blocks come back signed and are sent back unchanged.
   */
  thinking?: ThinkingConfigParam;
  /**
   * How `request.schema` is enforced: `'json-schema'` sends `output_config.format` (the
   * Messages API's native structured output); `'tool'` offers the schema as a tool the model
   * must call and returns its input as the JSON text (for models without native structured
   * output). @default 'json-schema'
   */
  structuredOutput?: 'json-schema' | 'tool';
  /**
   * Top-level `cache_control`: the API puts a breakpoint on the last cacheable block, so each
   * turn caches the whole conversation so far. It takes one of the 4 breakpoint slots.
   * Breakpoints of messages marked `_cache_breakpoint` are sent either way. @default false
   */
  autoCache?: boolean;
  /** TTL of every cache breakpoint the request carries; the API's default (5 minutes) when unset. */
  cacheTtl?: '5m' | '1h';
  /**
   * Extra body fields (`metadata`, `stop_sequences`, `service_tier` …, or `temperature` for the
   * models that still take it: the SDK no longer types it); the fields the adapter sets win.
   */
  extraBody?: Record<string, unknown>;
  /** Receives what the IR target (or the adapter) had to degrade. @default console.warn */
  onWarning?: (warning: CompileWarning) => void;
}
