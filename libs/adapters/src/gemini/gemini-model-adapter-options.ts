import type { CompileWarning } from '@flotilla/ir';
import type { GenerateContentConfig, GoogleGenAI } from '@google/genai';
import type { LimitOptions } from '../shared/limit-options.js';
import type { RetryOptions } from '../shared/retry-policy.js';

/** Options of {@link createGeminiAdapter}. Retry options: see {@link RetryOptions}; fleet-wide `limits`: see {@link LimitOptions}. */
export interface GeminiModelAdapterOptions extends RetryOptions, LimitOptions {
  /** The model, e.g. `gemini-2.5-flash`. Also accepted as `modelId` (the seed API's name). */
  model: string;
  /** The adapter id recorded in events and conversation headers. @default model */
  id?: string;
  /** A ready client; `apiKey`, `baseUrl` and `timeoutMs` are then ignored. Its own retries are turned off per request. */
  client?: GoogleGenAI;
  /** @default process.env.GEMINI_API_KEY, else process.env.GOOGLE_API_KEY */
  apiKey?: string;
  /** Another endpoint (a proxy, a test server): the SDK's `httpOptions.baseUrl`. @default the Gemini API */
  baseUrl?: string;
  /** Per-attempt timeout in milliseconds. @default none */
  timeoutMs?: number;
  /** Sampling temperature; not sent when unset. */
  temperature?: number;
  /** `maxOutputTokens`; not sent when unset. */
  maxTokens?: number;
  /**
   * Where structured output's JSON Schema goes: `responseJsonSchema` (plain JSON Schema, Gemini
   * 2.5+) or `responseSchema` (the OpenAPI subset; the SDK converts simple schemas).
   * @default 'responseJsonSchema'
   */
  schemaField?: 'responseJsonSchema' | 'responseSchema';
  /** Extra `config` fields (`thinkingConfig`, `safetySettings` …); fields the adapter sets win. */
  extraConfig?: GenerateContentConfig;
  /** Receives what the IR target had to degrade (dropped media, prefill …). @default console.warn */
  onWarning?: (warning: CompileWarning) => void;
}
