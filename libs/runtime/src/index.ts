/**
 * `@flotilla/runtime` — for writing agents: `createAgent` and the hooks, the policies and their
 * primitives, tools, the model contract, running an agent in-process (`runAgent`), and every
 * error an agent or its caller may catch. What workers, clients and tests need has its own
 * entry (`/worker`, `/client`, `/testing`); see the package README for the whole surface.
 *
 * Nothing here starts a worker or touches Redis: agent code imports only this entry (a lint
 * rule keeps it so), which is the determinism boundary made visible.
 */

export { errorGuard, FlotillaError } from '@flotilla/ir';
export { augmentAgent } from './agent/augment-agent.js';
export { MAX_AGENT_DEPTH } from './agent/call-child.js';
export { MAX_CHILD_RUN_ATTEMPTS } from './agent/call-child-run.js';
export { createAgent } from './agent/create-agent.js';
export type { RunAgentOptions } from './agent/run-agent.js';
export { runAgent, runAgentWithOutcome } from './agent/run-agent.js';
export type { RunWithOptions } from './agent/run-with.js';
export { getAbortHandle, getContextSignal, runWith } from './agent/run-with.js';
export type { ContextBudgetOptions } from './budget/context-budget-options.js';
export { DEFAULT_KEEP_RECENT_TURNS } from './budget/context-budget-options.js';
export { READ_OFFLOADED_OUTPUT } from './budget/offload-tool-results.js';
export type { OffloadedOutputs } from './budget/offloaded-outputs.js';
export { InvalidSubmitRequestError } from './client/invalid-submit-request-error.js';
export { InvalidTenantError } from './client/invalid-tenant-error.js';
export { InvalidConfigError } from './config/invalid-config-error.js';
export type {
  AgentConcurrency,
  AgentConfig,
  AgentFunction,
  AgentMiddleware,
  AgentRetryPolicy,
  AgentReturn,
  AnyAgent,
  HandlerReturn,
} from './context/agent-definition.js';
export type { AgentStreamEvent } from './context/agent-stream-event.js';
export type { OutputValidator } from './context/output-validator.js';
export type { RebornSignal } from './context/reborn.js';
export { isRebornSignal, reborn } from './context/reborn.js';
export type { ResourceConfig } from './context/resource-slots.js';
export type { RunOutcome } from './context/run-services.js';
export type { SeedAgentStreamEvent, SeedStreamToolCall } from './context/seed-stream-event.js';
export {
  AfterPromptAgentError,
  ContextNotFoundError,
  DuplicateToolNameError,
  ExpectScopeError,
  FanOutLimitExceededError,
  InvalidAgentConfigError,
  InvalidJsonSchemaError,
  InvalidToolDefinitionError,
  MaxDepthExceededError,
  ModelNotFoundError,
  ModelRegistryNotFoundError,
  PromptAgentAlreadyCalledError,
  RebornLimitExceededError,
  ResourceNotFoundError,
  RunWithNestedError,
  SchemaConversionError,
  type ScopeIssue,
} from './errors/agent-errors.js';
export {
  BudgetExceededError,
  type BudgetLimitKind,
  ContextBudgetExceededError,
  InvalidBudgetError,
  InvalidContextBudgetError,
  type InvalidCostReason,
  InvalidCostValueError,
  OffloadedOutputNotFoundError,
} from './errors/budget-errors.js';
export {
  InvalidPatchIdError,
  PatchInsideToolError,
  TooManyPendingStepsError,
} from './errors/patch-errors.js';
export {
  AttemptsExhaustedError,
  InvalidMessageHistoryError,
  InvalidPromptRuntimeError,
  type InvalidPromptRuntimeReason,
  InvalidToolArgumentsError,
  InvalidToolOutputError,
  LoopMissingToolOutputError,
  ToolLoopExceededError,
  ToolTimeoutError,
  TurnBudgetExceededError,
  type ValidationFailureType,
} from './errors/policy-errors.js';
export { RedisAuthError, RedisUnavailableError } from './errors/redis-errors.js';
export type { StepIdentity } from './errors/run-errors.js';
export {
  AbortError,
  AttemptSupersededError,
  ExecutionAbandonedError,
  ForeignChildRunError,
  JournalCorruptedError,
  NonDeterminismError,
  RunIdConflictError,
  RunNotFoundError,
  RunStalledError,
  RunTimeoutError,
  UnknownAgentError,
} from './errors/run-errors.js';
export {
  ApprovalAlreadyAnsweredError,
  DurableWaitUnavailableError,
  InvalidApprovalError,
  InvalidSignalPayloadError,
  InvalidWaitError,
  RunEndedError,
  SignalTimeoutError,
  ToolCallRejectedError,
  UnknownApprovalError,
  WaitInsideToolError,
} from './errors/wait-errors.js';
export { ConcurrencyKeyError } from './gate/concurrency-key-error.js';
export { equipBudget } from './hooks/equip-budget.js';
export { equipContextBudget } from './hooks/equip-context-budget.js';
export type { EquipFleetMemoOptions } from './hooks/equip-fleet-memo.js';
export { equipFleetMemo } from './hooks/equip-fleet-memo.js';
export { equipInstruction } from './hooks/equip-instruction.js';
export { equipMemo } from './hooks/equip-memo.js';
export type { MemorySetter } from './hooks/equip-memory.js';
export { equipMemory } from './hooks/equip-memory.js';
export { equipResource } from './hooks/equip-resource.js';
export { equipScope } from './hooks/equip-scope.js';
export { equipSystem } from './hooks/equip-system.js';
export type { EquipToolOptions } from './hooks/equip-tool.js';
export { equipTool } from './hooks/equip-tool.js';
export { equipToolCallLoopMiddleware } from './hooks/equip-tool-call-loop-middleware.js';
export { expectResource } from './hooks/expect-resource.js';
export type { DeepReadonly } from './hooks/expect-scope.js';
export { expectScope } from './hooks/expect-scope.js';
export { expectValidator } from './hooks/expect-validator.js';
export { getUsageStats } from './hooks/get-usage-stats.js';
export type { OnStreamOptions, SeedStreamConsumer, StreamConsumer } from './hooks/on-stream.js';
export { onStream } from './hooks/on-stream.js';
export { deprecatePatch, patched } from './hooks/patched.js';
export { recordToolUsage, type ToolUsageRecord } from './hooks/record-tool-usage.js';
export { MAX_PROGRESS_BYTES, MAX_PROGRESS_DEPTH, reportProgress } from './hooks/report-progress.js';
export type { RunInfo } from './hooks/run-info.js';
export { runInfo } from './hooks/run-info.js';
export { InvalidRunInputError } from './jobs/job-data-errors.js';
export { NotJsonError, PayloadTooLargeError, ValueTooDeepError } from './json/json-bounds-errors.js';
export { NonPortableJsonError } from './json/non-portable-json-error.js';
export { InvalidModelLimitsError } from './limits/invalid-model-limits-error.js';
export {
  type ModelLimits,
  modelLimitsSchema,
  type ResolvedModelLimits,
  resolveModelLimits,
} from './limits/model-limits.js';
export { RateLimitWaitError } from './limits/rate-limit-wait-error.js';
export { FleetMemoValueError } from './memo/fleet-memo-value-error.js';
export { InvalidModelResponseError } from './model/invalid-model-response-error.js';
export type {
  ModelAdapter,
  ModelBudget,
  ModelDelta,
  ModelRequest,
  ModelResponse,
  OutputSchema,
  ToolChoice,
} from './model/model-adapter.js';
export { ModelCallError } from './model/model-call-error.js';
export type {
  AnyModelAdapter,
  SeedContentPart,
  SeedMessage,
  SeedStreamEvent,
  SeedStreamOptions,
  SeedToolDefinition,
  StreamModelAdapter,
} from './model/stream-model-adapter.js';
export { toModelAdapter } from './model/stream-model-adapter.js';
export { callTool } from './policy/call-tool.js';
export { MAX_FAILED_SUMMARIES } from './policy/context-window.js';
export type { AgentPolicyConfig } from './policy/create-agent-policy.js';
export { createAgentPolicy } from './policy/create-agent-policy.js';
export type { ExecuteToolsOptions } from './policy/execute-tools.js';
export { executeTools } from './policy/execute-tools.js';
export type { ExecuteTurnOptions, TurnResult } from './policy/execute-turn.js';
export { executeTurn } from './policy/execute-turn.js';
export type { ExecuteValidationOptions } from './policy/execute-validation.js';
export { executeValidation } from './policy/execute-validation.js';
export { createJsonOutputParser, extractJsonText } from './policy/json-output-parser.js';
export type { OutputParser, ParseOutcome } from './policy/output-parser.js';
export { textOutputParser } from './policy/output-parser.js';
export { promptAgent } from './policy/prompt-agent.js';
export type { PromptChatOptions, PromptChatResult } from './policy/prompt-chat.js';
export { promptChat } from './policy/prompt-chat.js';
export type { PromptContext, PromptContextForkOptions } from './policy/prompt-context.js';
export type { ToolCallLoopOptions, ToolCallLoopResult } from './policy/tool-call-loop.js';
export { runToolCallLoop } from './policy/tool-call-loop.js';
export {
  InvalidRunExportError,
  ReplayResourceUsedError,
  ReplayWaitUsedError,
  RunExportTooLargeError,
  RunNotExportableError,
} from './replay/replay-errors.js';
export {
  ResourceCallTimeoutError,
  ResourceOwnerGoneError,
  ResourceRegistryClosedError,
} from './resources/resource-errors.js';
export { isResourceProxy } from './resources/resource-proxy.js';
export { InvalidScheduleError } from './schedules/invalid-schedule-error.js';
export {
  ConversationBusyError,
  ConversationConflictError,
  ConversationCorruptedError,
  ConversationLeaseLostError,
  ConversationVersionNotFoundError,
} from './store/store-errors.js';
export { dropSafeIntegerBounds } from './tools/drop-safe-integer-bounds.js';
export type { EquippedTool } from './tools/equipped-tool.js';
export type {
  JsonSchemaIssue,
  JsonSchemaObject,
  JsonSchemaParameters,
  JsonSchemaValidation,
} from './tools/json-schema.js';
export {
  isJsonSchemaParameters,
  jsonSchema,
  MAX_JSON_SCHEMA_BYTES,
  MAX_JSON_SCHEMA_DEPTH,
} from './tools/json-schema.js';
export type {
  ToolCallLoopContext,
  ToolCallLoopMiddleware,
  ToolOutput,
  ToolTurn,
} from './tools/tool-call-loop-middleware.js';
export type { ContentPart, ImageContent, ToolContent, VideoContent } from './tools/tool-content.js';
export { isToolContent, TOOL_CONTENT_KEY, toolContent, toolContentParts } from './tools/tool-content.js';
export type {
  NeedsApproval,
  ToolContext,
  ToolDefinition,
  ToolMiddleware,
  ToolRunContext,
} from './tools/tool-definition.js';
export { augmentTool, defineTool } from './tools/tool-definition.js';
export type { ToolArguments, ToolParameters } from './tools/tool-parameters.js';
export type { BudgetOptions, BudgetUpdate, ModelPrice, PriceTable } from './usage/budget-options.js';
export { type BudgetState, MICRO_USD, type UsageItem, type UsageStats } from './usage/usage-stats.js';
export { MAX_SLEEP_MS, type SleepDuration, sleep } from './waits/sleep.js';
export { type WaitForSignalOptions, waitForSignal } from './waits/wait-for-signal.js';
