/**
 * `@flotilla/runtime/testing` — for testing agents without a provider or Redis: the scripted
 * mock model, in-memory run services, and `executeRun` to run (and replay) an agent against
 * services you build, e.g. a journal you preload; `replayRun` to replay current code against a
 * run exported from Redis (`client.exportRun`) and report the first divergence.
 */

export type { ExecuteRunOptions } from '../agent/execute-run.js';
export { executeRun } from '../agent/execute-run.js';
export type {
  JournalEntry,
  JournalEntryKind,
  LoadedJournal,
  RunJournal,
  RunMemoryStore,
  RunServices,
} from '../context/run-services.js';
export { CollectingEventSink } from '../embedded/collecting-event-sink.js';
export type { EmbeddedServices, EmbeddedServicesOptions } from '../embedded/create-embedded-services.js';
export { createEmbeddedServices } from '../embedded/create-embedded-services.js';
export { InMemoryRunJournal } from '../embedded/in-memory-run-journal.js';
export { InMemoryRunMemoryStore } from '../embedded/in-memory-run-memory-store.js';
export type { RunEventSink } from '../events/run-event.js';
export {
  InvalidRunExportError,
  ReplayResourceUsedError,
  ReplayWaitUsedError,
  RunExportTooLargeError,
} from '../replay/replay-errors.js';
export type { ReplayDivergence, ReplayResult, ReplayRunOptions } from '../replay/replay-run.js';
export { replayRun } from '../replay/replay-run.js';
export type { ExportedChildRun, RunExport } from '../replay/run-export.js';
export { parseRunExport, readRunExport } from '../replay/run-export.js';
export type {
  AppendChange,
  ConversationStore,
  LoadConversationOptions,
} from '../store/conversation-store.js';
export { InMemoryConversationStore } from '../store/in-memory-conversation-store.js';
export type {
  MockCall,
  MockCalls,
  MockCondition,
  MockModel,
  MockModelOptions,
  MockPayload,
  MockPredicate,
  MockResponder,
  MockResponse,
  MockRuleBuilder,
  MockStep,
  MockStepOptions,
  MockToolCall,
  MockUsage,
} from '../testing/index.js';
export { createMockModel, MockModelNoRuleError, mockResponse } from '../testing/index.js';
