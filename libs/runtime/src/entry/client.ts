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
export { RedisAuthError, RedisUnavailableError } from '../errors/redis-errors.js';
export { RunIdConflictError, RunNotFoundError } from '../errors/run-errors.js';
export type { StreamedRunEvent } from '../events/redis-run-event-stream.js';
export type {
  ChildEndEvent,
  ChildStartEvent,
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
  ToolCallEvent,
  ToolResultEvent,
} from '../events/run-event.js';
export type { OnConflict, WaitingFor, WaitKind } from '../gate/waiting-for.js';
export { tenantSchema } from '../jobs/id-rule.js';
export type { WorkerInfo } from '../registry/worker-registry.js';
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
  ConversationHeader,
  ConversationModel,
  StoredConversation,
} from '../store/conversation-store.js';
export { ConversationBusyError } from '../store/store-errors.js';
export * from './configuration.js';
