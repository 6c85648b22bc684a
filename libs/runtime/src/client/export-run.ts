/**
 * `client.exportRun`: reads everything a replay of one run needs from Redis into a run export
 * (`replay/run-export.ts`): the record, the input (from the run's first `run-start` event, in its
 * compacted timeline or its event stream: the job that carried it is gone once the run ends),
 * the journal (and the steps the run last suspended on), the child runs' outcomes and the memory
 * still stored.
 */
import type { Redis } from 'ioredis';
import { parseStreamEntries, type StreamEntries } from '../events/redis-run-event-stream.js';
import type { RunEvent } from '../events/run-event.js';
import { decodeRunTimeline } from '../events/run-timeline.js';
import { unqualifyId } from '../jobs/tenant-ids.js';
import { parseJournalEntry } from '../journal/journal-entry-schema.js';
import { runKeys } from '../keys.js';
import { RunNotExportableError } from '../replay/replay-errors.js';
import {
  checkRunExportSize,
  type ExportedChildRun,
  type ExportedConversation,
  MAX_RUN_EXPORT_ENTRIES,
  RUN_EXPORT_FORMAT,
  RUN_EXPORT_VERSION,
  type RunExport,
} from '../replay/run-export.js';
import { PENDING_STEPS_FIELD, parsePendingSteps } from '../runs/pending-steps.js';
import type { RedisRunRecords } from '../runs/redis-run-records.js';
import type { RunRecord } from '../runs/run-record.js';
import type { ConversationStore } from '../store/conversation-store.js';

/** Where a run export is read from. */
export interface ExportRunServices {
  redis: Redis;
  prefix: string;
  records: RedisRunRecords;
  conversations: ConversationStore;
}

/** How many events of a run's stream are searched for its `run-start` (it is the first one). */
const RUN_START_SEARCH = 100;

/**
 * The export of the run of stored record `record`, with the ids its tenant gave.
 * @throws RunNotExportableError when the run never started (no journal, no `run-start` event) or has more than 100 000 entries
 * @throws JournalCorruptedError when a journal entry does not parse
 * @throws RunExportTooLargeError past 64 MiB
 */
export async function exportStoredRun(services: ExportRunServices, record: RunRecord): Promise<RunExport> {
  const { redis, prefix, records } = services;
  const keys = runKeys(prefix, record.runId);
  const [entryFields, pending, childIds, memoryPaths, input] = await Promise.all([
    redis.hgetall(keys.journal),
    redis.hget(keys.record, PENDING_STEPS_FIELD),
    redis.smembers(keys.children),
    redis.smembers(keys.memoryIndex),
    inputOf(redis, keys, record.runId),
  ]);
  const named = (id: string) => (record.tenant === undefined ? id : unqualifyId(id));
  if (input === NO_INPUT) throw new RunNotExportableError(named(record.runId), 'it has not started yet');
  const positions = Object.keys(entryFields);
  if (positions.length > MAX_RUN_EXPORT_ENTRIES || childIds.length > MAX_RUN_EXPORT_ENTRIES)
    throw new RunNotExportableError(
      named(record.runId),
      `it has more than ${MAX_RUN_EXPORT_ENTRIES} journal entries or child runs`,
    );
  const journal = positions.sort().map((position) => ({
    position,
    entry: parseJournalEntry(record.runId, position, entryFields[position] ?? ''),
  }));
  const pendingSteps = parsePendingSteps(record.runId, pending);
  const children = (await records.getMany(childIds))
    .filter((child): child is RunRecord => child?.callPath !== undefined && child.tenant === record.tenant)
    .map((child) => exportedChild(child, named))
    .sort((a, b) => a.position.localeCompare(b.position));
  const memory: RunExport['memory'] = {};
  const memoryHashes = await Promise.all(
    memoryPaths.map((callPath) => redis.hgetall(keys.memoryOf(callPath))),
  );
  for (const [index, callPath] of memoryPaths.entries()) {
    const fields = memoryHashes[index] ?? {};
    if (Object.keys(fields).length === 0) continue;
    memory[callPath] = Object.fromEntries(
      Object.entries(fields).map(([key, text]) => [key, JSON.parse(text)]),
    );
  }
  const conversations = await loadedConversations(services.conversations, journal);
  const document: RunExport = {
    format: RUN_EXPORT_FORMAT,
    version: RUN_EXPORT_VERSION,
    exportedAt: Date.now(),
    run: runPart(record, named),
    input,
    journal,
    children,
    memory,
  };
  // The steps of the last suspension the run has not got past (the others are in the journal).
  const stillPending = [...(pendingSteps ?? [])].filter((position) => !(position in entryFields));
  if (stillPending.length > 0) document.pendingSteps = stillPending.sort();
  if (conversations.length > 0) document.conversations = conversations;
  checkRunExportSize(document, `the export of run "${named(record.runId)}"`);
  return document;
}

const NO_INPUT = Symbol('no input');

/** The input of the run's first `run-start` event: in its compacted timeline once ended, else in its stream. */
async function inputOf(
  redis: Redis,
  keys: ReturnType<typeof runKeys>,
  runId: string,
): Promise<unknown | typeof NO_INPUT> {
  const [timeline, entries] = await Promise.all([
    redis.get(keys.timeline),
    redis.xrange(keys.events, '-', '+', 'COUNT', RUN_START_SEARCH) as Promise<StreamEntries>,
  ]);
  const events: readonly RunEvent[] =
    timeline === null ? parseStreamEntries(entries) : decodeRunTimeline(runId, timeline, undefined);
  const start = events.find((event) => event.type === 'run-start');
  return start?.type === 'run-start' ? start.input : NO_INPUT;
}

/** The conversation at each version a `conversation-load` entry recorded (those still stored). */
async function loadedConversations(
  store: ConversationStore,
  journal: RunExport['journal'],
): Promise<ExportedConversation[]> {
  const loads = new Map<string, { conversationId: string; version: number }>();
  for (const { entry } of journal) {
    const version = (entry.outcome.ok ? entry.outcome.value : undefined) as { version?: unknown } | undefined;
    if (entry.kind !== 'conversation-load' || typeof version?.version !== 'number' || version.version < 1)
      continue;
    const conversationId = entry.fingerprint.slice('conversation:'.length);
    loads.set(`${conversationId}@${version.version}`, { conversationId, version: version.version });
  }
  const found = await Promise.all(
    [...loads.values()].map(async (load) => ({
      ...load,
      conversation: await store.load(load.conversationId, { version: load.version }).catch(() => undefined),
    })),
  );
  return found.filter((load): load is ExportedConversation => load.conversation !== undefined);
}

function runPart(record: RunRecord, named: (id: string) => string): RunExport['run'] {
  const run: RunExport['run'] = {
    runId: named(record.runId),
    agentId: record.agentId,
    status: record.status,
    createdAt: record.createdAt,
  };
  if (record.tenant !== undefined) run.tenant = record.tenant;
  if (record.callPath !== undefined) run.callPath = record.callPath;
  if (record.parentRunId !== undefined) run.parentRunId = named(record.parentRunId);
  if (record.rootRunId !== undefined) run.rootRunId = named(record.rootRunId);
  if (record.conversationId !== undefined) run.conversationId = named(record.conversationId);
  // Recorded by workers that know their build (`FLOTILLA_BUILD_ID`).
  if (record.buildId) run.buildId = record.buildId;
  if (record.endedAt !== undefined) run.endedAt = record.endedAt;
  if (record.output !== undefined) run.output = record.output;
  if (record.error !== undefined) run.error = record.error;
  return run;
}

function exportedChild(child: RunRecord, named: (id: string) => string): ExportedChildRun {
  const exported: ExportedChildRun = {
    position: child.callPath ?? '',
    runId: named(child.runId),
    agentId: child.agentId,
    status: child.status,
  };
  if (child.fingerprint !== undefined) exported.fingerprint = child.fingerprint;
  if (child.output !== undefined) exported.output = child.output;
  if (child.error !== undefined) exported.error = child.error;
  return exported;
}
