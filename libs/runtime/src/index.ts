/**
 * @flotilla/runtime — agents as durable BullMQ jobs.
 */

export { errorGuard, FlotillaError } from '@flotilla/ir';
export type {
  AgentConfig,
  AgentDefinition,
  AgentFunction,
  AgentMiddleware,
  AgentRetryPolicy,
  AgentReturn,
  HandlerReturn,
} from './agent/agent-definition.js';
export { augmentAgent } from './agent/augment-agent.js';
export { MAX_AGENT_DEPTH } from './agent/call-child.js';
export { MAX_CHILD_RUN_ATTEMPTS } from './agent/call-child-run.js';
export { agentDefinitionOf, createAgent } from './agent/create-agent.js';
export type { RebornSignal } from './agent/reborn.js';
export { isRebornSignal, reborn } from './agent/reborn.js';
export type { CreateClientOptions, FlotillaClient, SubmitOptions } from './client/create-client.js';
export { createClient } from './client/create-client.js';
export type { RunEventsOptions, RunHandle } from './client/run-handle.js';
export { eventsConnectionName } from './client/run-handle.js';
export { RunNotFoundError } from './client/run-not-found-error.js';
export type { FlotillaConfig, LogLevel } from './config/flotilla-config.js';
export { InvalidConfigError } from './config/invalid-config-error.js';
export type { RedisConnectionOption } from './config/open-redis.js';
export { type ConfigOverrides, resolveConfig } from './config/resolve-config.js';
export type { ResourceConfig } from './context/resource-slots.js';
export { CollectingEventSink } from './embedded/collecting-event-sink.js';
export type { EmbeddedServices, EmbeddedServicesOptions } from './embedded/create-embedded-services.js';
export { createEmbeddedServices } from './embedded/create-embedded-services.js';
export { InMemoryRunJournal } from './embedded/in-memory-run-journal.js';
export { InMemoryRunMemoryStore } from './embedded/in-memory-run-memory-store.js';
export type { RunAgentOptions } from './embedded/run-agent.js';
export { runAgent, runAgentWithOutcome } from './embedded/run-agent.js';
export type { ChildCall, ChildResolution, ChildRunner, RunPlacement } from './engine/child-runner.js';
export type { ExecuteRunOptions } from './engine/execute-run.js';
export { executeRun, rootCallPath } from './engine/execute-run.js';
export type {
  JournalEntry,
  JournalEntryKind,
  RunEventSink,
  RunJournal,
  RunMemoryStore,
  RunOutcome,
  RunServices,
} from './engine/run-services.js';
export { DEFAULT_MAX_CHILDREN_PER_RUN } from './engine/run-state.js';
export { AbortError } from './errors/abort-error.js';
export { AfterPromptAgentError } from './errors/after-prompt-agent-error.js';
export type { ValidationFailureType } from './errors/attempts-exhausted-error.js';
export { AttemptsExhaustedError } from './errors/attempts-exhausted-error.js';
export { ContextNotFoundError } from './errors/context-not-found-error.js';
export { DuplicateToolNameError } from './errors/duplicate-tool-name-error.js';
export type { ScopeIssue } from './errors/expect-scope-error.js';
export { ExpectScopeError } from './errors/expect-scope-error.js';
export { FanOutLimitExceededError } from './errors/fan-out-limit-exceeded-error.js';
export { InvalidMessageHistoryError } from './errors/invalid-message-history-error.js';
export type { InvalidPromptRuntimeReason } from './errors/invalid-prompt-runtime-error.js';
export { InvalidPromptRuntimeError } from './errors/invalid-prompt-runtime-error.js';
export { InvalidToolDefinitionError } from './errors/invalid-tool-definition-error.js';
export { InvalidToolOutputError } from './errors/invalid-tool-output-error.js';
export { LoopMissingToolOutputError } from './errors/loop-missing-tool-output-error.js';
export { MaxDepthExceededError } from './errors/max-depth-exceeded-error.js';
export { ModelNotFoundError } from './errors/model-not-found-error.js';
export { ModelRegistryNotFoundError } from './errors/model-registry-not-found-error.js';
export { NonDeterminismError } from './errors/non-determinism-error.js';
export { PromptAgentAlreadyCalledError } from './errors/prompt-agent-already-called-error.js';
export { RebornLimitExceededError } from './errors/reborn-limit-exceeded-error.js';
export { ResourceNotFoundError } from './errors/resource-not-found-error.js';
export { SchemaConversionError } from './errors/schema-conversion-error.js';
export type { SerializedError } from './errors/serialize-error.js';
export { deserializeError, isSerializedError, serializeError } from './errors/serialize-error.js';
export { ToolLoopExceededError } from './errors/tool-loop-exceeded-error.js';
export { TurnBudgetExceededError } from './errors/turn-budget-exceeded-error.js';
export { DEFAULT_EVENT_STREAM_MAX_LENGTH, RedisRunEventSink } from './events/redis-run-event-sink.js';
export type { StreamedRunEvent } from './events/redis-run-event-stream.js';
export { type ReadRunEventStreamOptions, readRunEventStream } from './events/redis-run-event-stream.js';
export type {
  ChildEndEvent,
  ChildStartEvent,
  GenerationEndEvent,
  GenerationStartEvent,
  ModelTurnEndEvent,
  ModelTurnStartEvent,
  RebornEvent,
  RunEndEvent,
  RunEvent,
  RunEventBase,
  RunEventInput,
  RunEventOf,
  RunEventType,
  RunStartEvent,
  RunSuspendedEvent,
  ToolCallEvent,
  ToolResultEvent,
} from './events/run-event.js';
export type { AgentStreamEvent } from './hooks/agent-stream-event.js';
export { equipInstruction } from './hooks/equip-instruction.js';
export { equipMemo, MEMO_KEY_PREFIX } from './hooks/equip-memo.js';
export type { MemorySetter } from './hooks/equip-memory.js';
export { equipMemory } from './hooks/equip-memory.js';
export { equipResource } from './hooks/equip-resource.js';
export { equipScope } from './hooks/equip-scope.js';
export { equipSystem } from './hooks/equip-system.js';
export type { EquipToolOptions } from './hooks/equip-tool.js';
export { equipTool, zodToJsonSchema } from './hooks/equip-tool.js';
export { equipToolCallLoopMiddleware } from './hooks/equip-tool-call-loop-middleware.js';
export { expectResource } from './hooks/expect-resource.js';
export type { DeepReadonly } from './hooks/expect-scope.js';
export { expectScope } from './hooks/expect-scope.js';
export { expectValidator } from './hooks/expect-validator.js';
export type { OnStreamOptions, StreamConsumer } from './hooks/on-stream.js';
export { onStream } from './hooks/on-stream.js';
export { JournalCorruptedError } from './journal/journal-corrupted-error.js';
export { RedisRunJournal } from './journal/redis-run-journal.js';
export { NonPortableJsonError } from './json/non-portable-json-error.js';
export type { FleetMemoEntryKeys, FleetMemoKeys } from './keys.js';
export { fleetMemoKeys } from './keys.js';
export type { FleetMemo, FleetMemoGetOptions, FleetMemoOptions } from './memo/fleet-memo.js';
export { createFleetMemo } from './memo/fleet-memo.js';
export type { EquipFleetMemoOptions } from './memo/fleet-memo-hook.js';
export { equipFleetMemo } from './memo/fleet-memo-hook.js';
export { FleetMemoValueError } from './memo/fleet-memo-value-error.js';
export { RedisRunMemoryStore } from './memory/redis-run-memory-store.js';
export type {
  ModelAdapter,
  ModelDelta,
  ModelRequest,
  ModelResponse,
  OutputSchema,
  ToolChoice,
} from './model/model-adapter.js';
export { ModelCallError } from './model/model-call-error.js';
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
export type { OutputValidator } from './policy/output-validator.js';
export { promptAgent } from './policy/prompt-agent.js';
export type { PromptChatOptions, PromptChatResult } from './policy/prompt-chat.js';
export { promptChat } from './policy/prompt-chat.js';
export type { PromptContext, PromptContextForkOptions } from './policy/prompt-context.js';
export type { ToolCallLoopOptions, ToolCallLoopResult } from './policy/tool-call-loop.js';
export { runToolCallLoop } from './policy/tool-call-loop.js';
export { defineResource, type ResourceDefinition } from './resources/define-resource.js';
export { exposedDescriptors } from './resources/exposed-descriptors.js';
export {
  type ResolvedBrokerTiming,
  ResourceBroker,
  type ResourceBrokerOptions,
  type ResourceBrokerTiming,
} from './resources/resource-broker.js';
export {
  ResourceBrokerClient,
  type ResourceBrokerClientOptions,
} from './resources/resource-broker-client.js';
export { ResourceCallTimeoutError } from './resources/resource-call-timeout-error.js';
export { isResourceDescriptor, type ResourceDescriptor } from './resources/resource-descriptor.js';
export { ResourceOwnerGoneError } from './resources/resource-owner-gone-error.js';
export { isResourceProxy } from './resources/resource-proxy.js';
export {
  type AcquireRequest,
  DEFAULT_SUSPENDED_LEASE_TTL_MS,
  type LeaseHolder,
  type ResourceFactory,
  type ResourceLease,
  ResourceRegistry,
  type ResourceRegistryOptions,
} from './resources/resource-registry.js';
export { ResourceRegistryClosedError } from './resources/resource-registry-closed-error.js';
export { RunResources, type RunResourcesOptions } from './resources/run-resources.js';
export { WorkerResources, type WorkerResourcesOptions } from './resources/worker-resources.js';
export type { RunTotals } from './runs/redis-run-records.js';
export { DEFAULT_RUN_RETENTION, RedisRunRecords, type RunStart } from './runs/redis-run-records.js';
export type { RunRecord } from './runs/run-record.js';
export type { RunEnding, RunRetention } from './runs/run-script-args.js';
export { isTerminalStatus, type RunStatus, type TerminalRunStatus } from './runs/run-status.js';
export { BlobStore } from './store/blob-store.js';
export { ConversationConflictError } from './store/conversation-conflict-error.js';
export { ConversationCorruptedError } from './store/conversation-corrupted-error.js';
export type {
  AppendChange,
  ConversationHeader,
  ConversationModel,
  ConversationStore,
  LoadConversationOptions,
  StoredConversation,
} from './store/conversation-store.js';
export { ConversationVersionNotFoundError } from './store/conversation-version-not-found-error.js';
export { InMemoryConversationStore } from './store/in-memory-conversation-store.js';
export { DEFAULT_BLOB_THRESHOLD_BYTES } from './store/media-blobs.js';
export {
  RedisConversationStore,
  type RedisConversationStoreOptions,
} from './store/redis-conversation-store.js';
export { abortableDelay } from './testing/abortable-delay.js';
export type {
  MockCall,
  MockCalls,
  MockCondition,
  MockModel,
  MockModelOptions,
  MockPredicate,
  MockResponder,
  MockRuleBuilder,
  MockStep,
  MockStepOptions,
  MockToolCall,
  MockUsage,
} from './testing/index.js';
export { createMockModel, MockModelNoRuleError } from './testing/index.js';
export type { EquippedTool } from './tools/equipped-tool.js';
export type {
  ToolCallLoopContext,
  ToolCallLoopMiddleware,
  ToolOutput,
  ToolTurn,
} from './tools/tool-call-loop-middleware.js';
export type { ContentPart, ImageContent, ToolContent, VideoContent } from './tools/tool-content.js';
export { isToolContent, TOOL_CONTENT_KEY, toolContent } from './tools/tool-content.js';
export type { ToolContext, ToolDefinition, ToolMiddleware, ToolRunContext } from './tools/tool-definition.js';
export { augmentTool, defineTool } from './tools/tool-definition.js';
export { createWorker, type FlotillaWorker, type WorkerState } from './worker/create-worker.js';
export { InvalidRunInputError } from './worker/invalid-run-input-error.js';
export { PayloadTooLargeError } from './worker/payload-too-large-error.js';
export { encodeRunJobData, type RunJobData } from './worker/run-job-data.js';
export { RunStalledError } from './worker/run-stalled-error.js';
export { UnknownAgentError } from './worker/unknown-agent-error.js';
export type { AnyAgent, CreateWorkerOptions } from './worker/worker-options.js';
export type { WorkerRunEndInfo, WorkerRunHooks, WorkerRunStartInfo } from './worker/worker-run-hooks.js';
