/**
 * @flotilla/ir — the provider-neutral conversation IR.
 *
 * Input adapters (`fromOpenAI`, `fromAnthropic`, `fromGemini`, `fromOpenAIResponses`) turn a
 * provider's messages into IR and sanitise them; target adapters (`OpenAIAdapter`, …, or
 * `getAdapter(name)`) compile IR into a provider payload; `ContextChef` ties system prompt,
 * history and target together. Pure: no I/O.
 */

export { MAX_CACHE_BREAKPOINTS } from './anthropic/anthropic-cache-control.js';
export { toAnthropicTools } from './anthropic/anthropic-tools.js';
export type * from './anthropic/anthropic-wire.js';
export type { AnthropicPayload } from './anthropic/compile-anthropic.js';
export { AnthropicAdapter } from './anthropic/compile-anthropic.js';
export { fromAnthropic } from './anthropic/from-anthropic.js';
export type { ChefSnapshot } from './chef/chef-snapshot.js';
export { CHEF_SNAPSHOT_SCHEMA_VERSION, parseChefSnapshot } from './chef/chef-snapshot.js';
export type { ChefConfig, ChefTarget, CompileOptions, PayloadFor } from './chef/context-chef.js';
export { ContextChef } from './chef/context-chef.js';
export { UnsupportedSnapshotVersionError } from './chef/unsupported-snapshot-version-error.js';
export type { CompactOptions } from './compaction/compact.js';
export { compact, TOOL_RESULT_CLEARED, TOOL_RESULT_CLEARED_INSTRUCTION } from './compaction/compact.js';
export type { CompactTarget, ToolResultsTarget } from './compaction/compact-targets.js';
export { readCompactTargets } from './compaction/compact-targets.js';
export type { Turn } from './compaction/group-into-turns.js';
export { groupIntoTurns } from './compaction/group-into-turns.js';
export type { CompactionPlan, PlanCompactionOptions } from './compaction/plan-compaction.js';
export { compactHistory, planCompaction } from './compaction/plan-compaction.js';
export type {
  SummarizeHistoryOptions,
  SummarizeHistoryResult,
  SummarizeRequest,
  Summarizer,
} from './compaction/summarize-history.js';
export { SUMMARY_INSTRUCTIONS, SUMMARY_MARKER, summarizeHistory } from './compaction/summarize-history.js';
export { IRValidationError } from './errors.js';
export {
  errorGuard,
  FlotillaError,
  type FlotillaErrorClass,
  markAsFlotillaError,
  ownJsonFields,
} from './flotilla-error.js';
export type { GeminiAdapterOptions, GeminiPayload } from './gemini/compile-gemini.js';
export { GeminiAdapter } from './gemini/compile-gemini.js';
export { fromGemini } from './gemini/from-gemini.js';
export {
  GEMINI_RECURSIVE_REF_DEPTH,
  type GeminiSchemaAdaptation,
  toGeminiSchema,
} from './gemini/gemini-schema.js';
export { toGeminiTools } from './gemini/gemini-tools.js';
export type * from './gemini/gemini-wire.js';
export {
  CONVERSATION_CONTINUES,
  ensureValidHistory,
  MISSING_TOOL_RESULT,
} from './history/ensure-valid-history.js';
export type { AttachmentHints } from './input/attachment-from-reference.js';
export { attachmentFromUrl } from './input/attachment-from-reference.js';
export { joinText } from './input/join-text.js';
export type { OpenAIAdapterOptions, OpenAIPayload } from './openai/compile-openai.js';
export { OpenAIAdapter } from './openai/compile-openai.js';
export { fromOpenAI } from './openai/from-openai.js';
export { allowsOpenAIStrict } from './openai/openai-strict-schema.js';
export { toOpenAITools } from './openai/openai-tools.js';
export type * from './openai/openai-wire.js';
export type { OpenAIResponsesPayload } from './openai-responses/compile-openai-responses.js';
export { OpenAIResponsesAdapter } from './openai-responses/compile-openai-responses.js';
export { fromOpenAIResponses } from './openai-responses/from-openai-responses.js';
export type * from './openai-responses/openai-responses-wire.js';
export { toResponsesTools } from './openai-responses/responses-tools.js';
export { AdapterRegistry, adapterRegistry, getAdapter } from './registry/adapter-registry.js';
export { BUILTIN_SOURCE_ID } from './registry/builtin-adapters.js';
export type { BuiltinPayloads } from './registry/builtin-payloads.js';
export { UnknownTargetError } from './registry/unknown-target-error.js';
export { prefillInstruction } from './shared/prefill.js';
export type { ThinkingAsTextOptions } from './shared/thinking-as-text.js';
export { TOOL_MEDIA_FOLLOWS_TEXT } from './shared/tool-media-follows-text.js';
export {
  ATTACHMENT_TOKENS,
  countMessageTokens,
  MESSAGE_OVERHEAD_TOKENS,
  REPLY_PRIMING_TOKENS,
  type TextTokenCounter,
} from './tokens/count-message-tokens.js';
export { ESTIMATED_CHARS_PER_TOKEN, estimateTextTokens, estimateTokens } from './tokens/estimate-tokens.js';
export * from './types/index.js';
export { describeValue } from './validation/describe-value.js';
