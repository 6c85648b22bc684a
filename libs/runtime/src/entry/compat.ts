/**
 * `@flotilla/runtime/compat` — helpers that exist only for code migrating from the seed agent API
 * (`@rejelly/core`): its name-based `isXxxError(e)` guards, one per error class, next to our
 * `XxxError.is(e)`, and its tool-content marker. New code should use `XxxError.is(e)`.
 *
 * Like the seed's, these guards compare `name` only, so they also recognise an error rebuilt
 * from a run's stored record in another process.
 */
import type { FlotillaErrorClass } from '@flotilla/ir';
import {
  AbortError,
  AfterPromptAgentError,
  AttemptSupersededError,
  AttemptsExhaustedError,
  BudgetExceededError,
  ContextNotFoundError,
  ConversationBusyError,
  ConversationConflictError,
  ConversationCorruptedError,
  ConversationLeaseLostError,
  ConversationVersionNotFoundError,
  DuplicateToolNameError,
  ExecutionAbandonedError,
  ExpectScopeError,
  FanOutLimitExceededError,
  FleetMemoValueError,
  ForeignChildRunError,
  InvalidAgentConfigError,
  InvalidBudgetError,
  InvalidConfigError,
  InvalidCostValueError,
  InvalidMessageHistoryError,
  InvalidModelResponseError,
  InvalidPromptRuntimeError,
  InvalidRunInputError,
  InvalidSubmitRequestError,
  InvalidTenantError,
  InvalidToolArgumentsError,
  InvalidToolDefinitionError,
  InvalidToolOutputError,
  JournalCorruptedError,
  LoopMissingToolOutputError,
  MaxDepthExceededError,
  ModelCallError,
  ModelNotFoundError,
  ModelRegistryNotFoundError,
  NonDeterminismError,
  NonPortableJsonError,
  NotJsonError,
  PayloadTooLargeError,
  PromptAgentAlreadyCalledError,
  RebornLimitExceededError,
  RedisAuthError,
  RedisUnavailableError,
  ResourceCallTimeoutError,
  ResourceNotFoundError,
  ResourceOwnerGoneError,
  ResourceRegistryClosedError,
  RunIdConflictError,
  RunNotFoundError,
  RunStalledError,
  RunTimeoutError,
  RunWithNestedError,
  SchemaConversionError,
  ToolLoopExceededError,
  ToolTimeoutError,
  TurnBudgetExceededError,
  UnknownAgentError,
  ValueTooDeepError,
} from '../index.js';

/** A guard matching errors whose `name` is `errorClass`'s. */
function byName<T>(errorClass: FlotillaErrorClass): (error: unknown) => error is T {
  const { errorName } = errorClass;
  return (error: unknown): error is T =>
    typeof error === 'object' && error !== null && (error as { name?: unknown }).name === errorName;
}

export const isAbortError = byName<AbortError>(AbortError);
export const isAfterPromptAgentError = byName<AfterPromptAgentError>(AfterPromptAgentError);
export const isAttemptSupersededError = byName<AttemptSupersededError>(AttemptSupersededError);
export const isAttemptsExhaustedError = byName<AttemptsExhaustedError>(AttemptsExhaustedError);
export const isBudgetExceededError = byName<BudgetExceededError>(BudgetExceededError);
export const isContextNotFoundError = byName<ContextNotFoundError>(ContextNotFoundError);
export const isConversationBusyError = byName<ConversationBusyError>(ConversationBusyError);
export const isConversationConflictError = byName<ConversationConflictError>(ConversationConflictError);
export const isConversationCorruptedError = byName<ConversationCorruptedError>(ConversationCorruptedError);
export const isConversationLeaseLostError = byName<ConversationLeaseLostError>(ConversationLeaseLostError);
export const isConversationVersionNotFoundError = byName<ConversationVersionNotFoundError>(
  ConversationVersionNotFoundError,
);
export const isDuplicateToolNameError = byName<DuplicateToolNameError>(DuplicateToolNameError);
export const isExecutionAbandonedError = byName<ExecutionAbandonedError>(ExecutionAbandonedError);
export const isExpectScopeError = byName<ExpectScopeError>(ExpectScopeError);
export const isFanOutLimitExceededError = byName<FanOutLimitExceededError>(FanOutLimitExceededError);
export const isFleetMemoValueError = byName<FleetMemoValueError>(FleetMemoValueError);
export const isForeignChildRunError = byName<ForeignChildRunError>(ForeignChildRunError);
export const isInvalidAgentConfigError = byName<InvalidAgentConfigError>(InvalidAgentConfigError);
export const isInvalidBudgetError = byName<InvalidBudgetError>(InvalidBudgetError);
export const isInvalidConfigError = byName<InvalidConfigError>(InvalidConfigError);
export const isInvalidCostValueError = byName<InvalidCostValueError>(InvalidCostValueError);
export const isInvalidMessageHistoryError = byName<InvalidMessageHistoryError>(InvalidMessageHistoryError);
export const isInvalidModelResponseError = byName<InvalidModelResponseError>(InvalidModelResponseError);
export const isInvalidPromptRuntimeError = byName<InvalidPromptRuntimeError>(InvalidPromptRuntimeError);
export const isInvalidRunInputError = byName<InvalidRunInputError>(InvalidRunInputError);
export const isInvalidSubmitRequestError = byName<InvalidSubmitRequestError>(InvalidSubmitRequestError);
export const isInvalidTenantError = byName<InvalidTenantError>(InvalidTenantError);
export const isInvalidToolArgumentsError = byName<InvalidToolArgumentsError>(InvalidToolArgumentsError);
export const isInvalidToolDefinitionError = byName<InvalidToolDefinitionError>(InvalidToolDefinitionError);
export const isInvalidToolOutputError = byName<InvalidToolOutputError>(InvalidToolOutputError);
export const isJournalCorruptedError = byName<JournalCorruptedError>(JournalCorruptedError);
export const isLoopMissingToolOutputError = byName<LoopMissingToolOutputError>(LoopMissingToolOutputError);
export const isMaxDepthExceededError = byName<MaxDepthExceededError>(MaxDepthExceededError);
export const isModelCallError = byName<ModelCallError>(ModelCallError);
export const isModelNotFoundError = byName<ModelNotFoundError>(ModelNotFoundError);
export const isModelRegistryNotFoundError = byName<ModelRegistryNotFoundError>(ModelRegistryNotFoundError);
export const isNonDeterminismError = byName<NonDeterminismError>(NonDeterminismError);
export const isNonPortableJsonError = byName<NonPortableJsonError>(NonPortableJsonError);
export const isNotJsonError = byName<NotJsonError>(NotJsonError);
export const isPayloadTooLargeError = byName<PayloadTooLargeError>(PayloadTooLargeError);
export const isPromptAgentAlreadyCalledError = byName<PromptAgentAlreadyCalledError>(
  PromptAgentAlreadyCalledError,
);
export const isRebornLimitExceededError = byName<RebornLimitExceededError>(RebornLimitExceededError);
export const isRedisAuthError = byName<RedisAuthError>(RedisAuthError);
export const isRedisUnavailableError = byName<RedisUnavailableError>(RedisUnavailableError);
export const isResourceCallTimeoutError = byName<ResourceCallTimeoutError>(ResourceCallTimeoutError);
export const isResourceNotFoundError = byName<ResourceNotFoundError>(ResourceNotFoundError);
export const isResourceOwnerGoneError = byName<ResourceOwnerGoneError>(ResourceOwnerGoneError);
export const isResourceRegistryClosedError = byName<ResourceRegistryClosedError>(ResourceRegistryClosedError);
export const isRunIdConflictError = byName<RunIdConflictError>(RunIdConflictError);
export const isRunNotFoundError = byName<RunNotFoundError>(RunNotFoundError);
export const isRunStalledError = byName<RunStalledError>(RunStalledError);
export const isRunTimeoutError = byName<RunTimeoutError>(RunTimeoutError);
export const isRunWithNestedError = byName<RunWithNestedError>(RunWithNestedError);
export const isSchemaConversionError = byName<SchemaConversionError>(SchemaConversionError);
export const isToolLoopExceededError = byName<ToolLoopExceededError>(ToolLoopExceededError);
export const isToolTimeoutError = byName<ToolTimeoutError>(ToolTimeoutError);
export const isTurnBudgetExceededError = byName<TurnBudgetExceededError>(TurnBudgetExceededError);
export const isUnknownAgentError = byName<UnknownAgentError>(UnknownAgentError);
export const isValueTooDeepError = byName<ValueTooDeepError>(ValueTooDeepError);
/** The seed's name for `ExpectScopeError` (whose `name` is `ScopeError`, as in the seed). */
export const isScopeError = isExpectScopeError;

export { SEED_TOOL_CONTENT_KEY } from '../tools/tool-content.js';
