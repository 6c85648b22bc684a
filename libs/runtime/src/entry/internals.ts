/**
 * `@flotilla/runtime/internals` — for Flotilla's own packages and test suites only (the
 * adapters' retry loop and fleet memo, the Redis conversation store and job encoding the
 * fault suites drive directly). No compatibility promise: applications use the other entries.
 */

export { eventsConnectionName } from '../client/run-handle.js';
export { coalesceWrites } from '../config/coalesce-writes.js';
export { openRedis } from '../config/open-redis.js';
export { type ConnectionWatchOptions, watchConnection } from '../config/watch-connection.js';
export { eventNoticeChannel, runEndChannel } from '../events/event-notice.js';
export { RedisRunEventSink } from '../events/redis-run-event-sink.js';
export { agentQueueName } from '../jobs/agent-queues.js';
export {
  ID_PATTERN,
  ID_RULE,
  idSchema,
  isChildRunIdForm,
  isValidId,
  MAX_ID_LENGTH,
  RUN_ID_PATTERN,
  runIdSchema,
  TENANT_RULE,
  tenantSchema,
} from '../jobs/id-rule.js';
export { encodeRunJobData, type RunJobData } from '../jobs/run-job-data.js';
export { qualifyId, tenantOfId, unqualifyId } from '../jobs/tenant-ids.js';
export {
  checkJsonBounds,
  inspectJson,
  type JsonInspection,
  jsonBoundsError,
  parseBoundedJson,
} from '../json/json-bounds.js';
export {
  bullmqPrefix,
  type ConversationGateKeys,
  conversationGateKeys,
  conversationKeys,
  type RunKeys,
  runKeys,
  waitingRunsKeys,
  workerRegistryKeys,
} from '../keys.js';
export type { FleetMemo, FleetMemoGetOptions, FleetMemoOptions } from '../memo/fleet-memo.js';
export { createFleetMemo } from '../memo/fleet-memo.js';
export { COMPACTED_STREAM_GRACE_MS, RedisRunRecords } from '../runs/redis-run-records.js';
export {
  type GaugeTarget,
  RUNS_WAITING_HELP,
  WaitingRunsReport,
  type WaitingRunsReportOptions,
  type WaitingRunsSample,
} from '../runs/waiting-runs-report.js';
export { abortableDelay } from '../shared/abortable-delay.js';
export { REDACTED, redactingLogOptions, redactSecrets, redactValue } from '../shared/redact-secrets.js';
export { LuaScript } from '../store/lua-script.js';
export {
  RedisConversationStore,
  type RedisConversationStoreOptions,
} from '../store/redis-conversation-store.js';
