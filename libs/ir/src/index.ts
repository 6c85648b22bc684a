/**
 * @flotilla/ir — the provider-neutral conversation IR.
 *
 * Input adapters (`fromOpenAI`, `fromAnthropic`, `fromGemini`, `fromOpenAIResponses`) turn a
 * provider's messages into IR and sanitise them; target adapters (`OpenAIAdapter`, …, or
 * `getAdapter(name)`) compile IR into a provider payload; `ContextChef` ties system prompt,
 * history and target together. Pure: no I/O.
 */

export { fromAnthropic } from './anthropic/from-anthropic.js';
export type { CompactOptions, CompactTarget } from './compaction/compact.js';
export { compact, TOOL_RESULT_CLEARED, TOOL_RESULT_CLEARED_INSTRUCTION } from './compaction/compact.js';
export type { Turn } from './compaction/group-into-turns.js';
export { groupIntoTurns } from './compaction/group-into-turns.js';
export type {
  SummarizeHistoryOptions,
  SummarizeHistoryResult,
  SummarizeRequest,
  Summarizer,
} from './compaction/summarize-history.js';
export { SUMMARY_INSTRUCTIONS, SUMMARY_MARKER, summarizeHistory } from './compaction/summarize-history.js';
export { IRValidationError } from './errors.js';
export { fromGemini } from './gemini/from-gemini.js';
export {
  CONVERSATION_CONTINUES,
  ensureValidHistory,
  MISSING_TOOL_RESULT,
} from './history/ensure-valid-history.js';
export { fromOpenAI } from './openai/from-openai.js';
export { fromOpenAIResponses } from './openai-responses/from-openai-responses.js';
export * from './types/index.js';
