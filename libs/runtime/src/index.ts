/**
 * @flotilla/runtime — agents as durable BullMQ jobs.
 */

export type { SerializedError } from './errors/serialize-error.js';
export { deserializeError, isSerializedError, serializeError } from './errors/serialize-error.js';
export type { FleetMemoEntryKeys, FleetMemoKeys } from './keys.js';
export { fleetMemoKeys } from './keys.js';
export type { FleetMemo, FleetMemoGetOptions, FleetMemoOptions } from './memo/fleet-memo.js';
export { createFleetMemo } from './memo/fleet-memo.js';
export { FleetMemoValueError } from './memo/fleet-memo-value-error.js';
export type {
  ModelAdapter,
  ModelDelta,
  ModelRequest,
  ModelResponse,
  OutputSchema,
  ToolChoice,
} from './model/model-adapter.js';
export { ModelCallError } from './model/model-call-error.js';
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
