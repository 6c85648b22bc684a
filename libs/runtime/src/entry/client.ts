/**
 * `@flotilla/runtime/client` — for services that submit and follow runs: `createClient`, run
 * handles and records, run events, stored conversations, and the configuration it resolves.
 */

export type { CreateClientOptions, FlotillaClient, SubmitOptions } from '../client/create-client.js';
export { createClient } from '../client/create-client.js';
export { InvalidRunQueryError } from '../client/invalid-run-query-error.js';
export { InvalidSubmitRequestError } from '../client/invalid-submit-request-error.js';
export { InvalidTenantError } from '../client/invalid-tenant-error.js';
export type { RunList } from '../client/list-runs.js';
export {
  DEFAULT_RUN_LIST_LIMIT,
  type ListRunsQuery,
  listRunsQuerySchema,
  MAX_RUN_LIST_LIMIT,
} from '../client/list-runs-query.js';
export type { RunEventsOptions, RunHandle } from '../client/run-handle.js';
export type { RunTree, RunTreeNode } from '../client/run-tree.js';
export { parseSubmitRequest, type SubmitRequest, submitRequestSchema } from '../client/submit-request.js';
export type { ApprovalAnswer } from '../context/run-services.js';
export { BudgetExceededError, ContextBudgetExceededError } from '../errors/budget-errors.js';
export { RedisAuthError, RedisUnavailableError } from '../errors/redis-errors.js';
export { RunIdConflictError, RunNotFoundError } from '../errors/run-errors.js';
export {
  ApprovalAlreadyAnsweredError,
  InvalidApprovalError,
  InvalidSignalPayloadError,
  InvalidWaitError,
  RunEndedError,
  UnknownApprovalError,
} from '../errors/wait-errors.js';
export type { StreamedRunEvent } from '../events/redis-run-event-stream.js';
export type {
  ApprovalRequestedEvent,
  ApprovalResolvedEvent,
  BudgetUpdateEvent,
  ChildEndEvent,
  ChildStartEvent,
  ContextCompactedEvent,
  ContextCompactionFailedEvent,
  GenerationEndEvent,
  GenerationStartEvent,
  ModelTurnEndEvent,
  ModelTurnStartEvent,
  ProgressEvent,
  RateLimitWaitEvent,
  RebornEvent,
  RunEndEvent,
  RunEvent,
  RunEventBase,
  RunEventOf,
  RunEventType,
  RunStartEvent,
  RunSuspendedEvent,
  SignalReceivedEvent,
  SleepStartedEvent,
  ToolCallEvent,
  ToolOutputOffloadedEvent,
  ToolResultEvent,
} from '../events/run-event.js';
export {
  type OnConflict,
  type ParkedWait,
  WAIT_KINDS,
  type WaitingFor,
  type WaitKind,
} from '../gate/waiting-for.js';
export { tenantSchema } from '../jobs/id-rule.js';
export type { QueueDepth } from '../jobs/queue-depth.js';
export type { WorkerInfo } from '../registry/worker-registry.js';
export {
  InvalidRunExportError,
  RunExportTooLargeError,
  RunNotExportableError,
} from '../replay/replay-errors.js';
export type { ExportedChildRun, RunExport } from '../replay/run-export.js';
export {
  MAX_RUN_EXPORT_BYTES,
  parseRunExport,
  RUN_EXPORT_FORMAT,
  RUN_EXPORT_VERSION,
  readRunExport,
} from '../replay/run-export.js';
export type { RunRecord } from '../runs/run-record.js';
export { isTerminalStatus, type RunStatus, type TerminalRunStatus } from '../runs/run-status.js';
export { InvalidScheduleError } from '../schedules/invalid-schedule-error.js';
export type { ScheduleInfo } from '../schedules/redis-schedules.js';
export {
  MAX_SCHEDULE_ID_LENGTH,
  parseScheduleRequest,
  type ScheduleDefinition,
  type ScheduleRequest,
  scheduleRequestSchema,
} from '../schedules/schedule-request.js';
export type {
  ConversationBase,
  ConversationHeader,
  ConversationModel,
  StoredConversation,
} from '../store/conversation-store.js';
export { ConversationBusyError } from '../store/store-errors.js';
export {
  type ApprovalOutcome,
  approvalAnswerInputSchema,
  MAX_APPROVAL_REASON_LENGTH,
} from '../waits/answer-approval.js';
export type { SignalOptions, SignalReceipt } from '../waits/send-signal.js';
export * from './configuration.js';
