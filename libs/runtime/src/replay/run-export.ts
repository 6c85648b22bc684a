/**
 * A run export: what `replayRun` needs to replay current code against a recorded run, as one
 * versioned JSON document (`client.exportRun`, `flotilla runs export`, `GET /runs/:id/export`).
 * It holds the run's input, its whole journal (with the steps it last suspended on), the outcomes of its child runs (a parent records
 * a child's outcome only when it replays past the call, so a suspended run's finished children
 * are only here), its agents' stored memory (present while the run has not ended) and the build
 * that ran it. Checked on the way in: {@link parseRunExport}.
 */
import { z } from 'zod';
import type { JournalEntry } from '../context/journal-entry.js';
import type { SerializedError } from '../errors/serialize-error.js';
import { journalEntrySchema, serializedErrorSchema } from '../journal/journal-entry-schema.js';
import { checkJsonBounds } from '../json/json-bounds.js';
import { MAX_POSITION_LENGTH, pendingStepsSchema } from '../runs/pending-steps.js';
import type { RunStatus } from '../runs/run-status.js';
import type { StoredConversation } from '../store/conversation-store.js';
import { InvalidRunExportError, RunExportTooLargeError } from './replay-errors.js';

/** The `format` of every run export. */
export const RUN_EXPORT_FORMAT = 'flotilla.run-export';
/** The export format version this runtime writes and reads. */
export const RUN_EXPORT_VERSION = 1;
/** The largest run export (UTF-8 bytes of its JSON) written or read: 64 MiB. */
export const MAX_RUN_EXPORT_BYTES = 64 * 1024 * 1024;
/** The deepest run export: journal values are bounded at 128 levels; the document adds a few. */
export const MAX_RUN_EXPORT_DEPTH = 160;
/** The most journal entries (or child runs) one export holds. */
export const MAX_RUN_EXPORT_ENTRIES = 100_000;

/** One child run the exported run called, by the parent's journal position of the call. */
export interface ExportedChildRun {
  position: string;
  runId: string;
  agentId: string;
  status: RunStatus;
  /** What the parent asked for (agent id + props hash), checked on replay. */
  fingerprint?: string;
  output?: unknown;
  error?: SerializedError;
}

/** A run export document (format version 1). */
export interface RunExport {
  format: typeof RUN_EXPORT_FORMAT;
  version: typeof RUN_EXPORT_VERSION;
  /** Epoch ms. */
  exportedAt: number;
  run: {
    runId: string;
    agentId: string;
    status: RunStatus;
    tenant?: string;
    /** For a child run: its callPath in the tree (its journal positions start with it). */
    callPath?: string;
    parentRunId?: string;
    rootRunId?: string;
    conversationId?: string;
    /** The build of the worker that started the run (`FLOTILLA_BUILD_ID`), when recorded. */
    buildId?: string;
    createdAt: number;
    endedAt?: number;
    output?: unknown;
    error?: SerializedError;
  };
  /** The run's input (its root agent's props). */
  input: unknown;
  /** Every journal entry, by position (sorted). */
  journal: { position: string; entry: JournalEntry }[];
  /**
   * The positions of the durable steps the run last suspended on (a pending child call, a
   * wait) that are not journaled yet: reached all the same, so `patched()` answers in a replay
   * as on a worker, and a replay stops there. @default none (a run not suspended, or an export
   * of an older runtime)
   */
  pendingSteps?: string[];
  children: ExportedChildRun[];
  /** Stored `equipMemory` / `equipMemo` values by callPath (deleted when a run ends: empty then). */
  memory: Record<string, Record<string, unknown>>;
  /**
   * The stored conversation at each version the run's `promptChat` loaded (its
   * `conversation-load` entries), by stored conversation id; absent or shorter once the
   * conversation expired. @default none
   */
  conversations?: ExportedConversation[];
}

/** A conversation as a run loaded it. */
export interface ExportedConversation {
  /** The stored id (a tenant's is qualified: `<tenant>~<id>`), as the journal's fingerprints name it. */
  conversationId: string;
  version: number;
  conversation: StoredConversation;
}

const text = (max: number) => z.string().min(1).max(max);
const runStatusSchema = z.enum(['queued', 'running', 'waiting', 'succeeded', 'failed', 'cancelled']);
const POSITION_LENGTH = MAX_POSITION_LENGTH;

const runExportSchema = z
  .object({
    format: z.literal(RUN_EXPORT_FORMAT),
    version: z.literal(RUN_EXPORT_VERSION),
    exportedAt: z.number().int().nonnegative(),
    run: z.object({
      runId: text(300),
      agentId: text(300),
      status: runStatusSchema,
      tenant: text(64).optional(),
      callPath: text(POSITION_LENGTH).optional(),
      parentRunId: text(300).optional(),
      rootRunId: text(300).optional(),
      conversationId: text(300).optional(),
      buildId: text(200).optional(),
      createdAt: z.number().int().nonnegative(),
      endedAt: z.number().int().nonnegative().optional(),
      output: z.unknown().optional(),
      error: serializedErrorSchema.optional(),
    }),
    input: z.unknown(),
    journal: z
      .array(z.object({ position: text(POSITION_LENGTH), entry: journalEntrySchema }))
      .max(MAX_RUN_EXPORT_ENTRIES),
    pendingSteps: pendingStepsSchema.optional(),
    children: z
      .array(
        z.object({
          position: text(POSITION_LENGTH),
          runId: text(300),
          agentId: text(300),
          status: runStatusSchema,
          fingerprint: z.string().max(POSITION_LENGTH).optional(),
          output: z.unknown().optional(),
          error: serializedErrorSchema.optional(),
        }),
      )
      .max(MAX_RUN_EXPORT_ENTRIES),
    memory: z.record(text(POSITION_LENGTH), z.record(z.string(), z.unknown())),
    conversations: z
      .array(
        z.object({
          conversationId: text(300),
          version: z.number().int().positive(),
          conversation: z.object({
            header: z.looseObject({
              conversationId: z.string(),
              version: z.number().int(),
              system: z.array(z.unknown()),
            }),
            messages: z.array(z.looseObject({ role: z.string() })),
          }),
        }),
      )
      .max(MAX_RUN_EXPORT_ENTRIES)
      .optional(),
  })
  .superRefine((value, context) => {
    const seen = new Set<string>();
    for (const [index, { position }] of value.journal.entries()) {
      if (seen.has(position))
        context.addIssue({
          code: 'custom',
          path: ['journal', index, 'position'],
          message: 'repeated position',
        });
      seen.add(position);
    }
  });

/**
 * Checks a run export (parsed JSON): its size and depth, then its shape and format version.
 * @throws RunExportTooLargeError past 64 MiB; ValueTooDeepError past 160 levels; NotJsonError
 * @throws InvalidRunExportError naming what is wrong (another format or version, a missing field …)
 */
export function parseRunExport(value: unknown, source = 'the run export'): RunExport {
  checkRunExportSize(value, source);
  const format = (value as { format?: unknown; version?: unknown } | null)?.format;
  const version = (value as { version?: unknown } | null)?.version;
  if (format === RUN_EXPORT_FORMAT && typeof version === 'number' && version !== RUN_EXPORT_VERSION)
    throw new InvalidRunExportError(source, [
      `version: this runtime reads version ${RUN_EXPORT_VERSION}, the export is version ${version}`,
    ]);
  const parsed = runExportSchema.safeParse(value);
  if (!parsed.success)
    throw new InvalidRunExportError(
      source,
      parsed.error.issues
        .slice(0, 10)
        .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`),
    );
  return parsed.data as RunExport;
}

/**
 * Reads a run export from its JSON text.
 * @throws InvalidRunExportError when the text is not JSON, or as {@link parseRunExport}
 */
export function readRunExport(json: string, source = 'the run export'): RunExport {
  const bytes = Buffer.byteLength(json);
  if (bytes > MAX_RUN_EXPORT_BYTES) throw new RunExportTooLargeError(source, bytes, MAX_RUN_EXPORT_BYTES);
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw new InvalidRunExportError(source, [`not JSON (${(error as Error).message})`]);
  }
  return parseRunExport(value, source);
}

/**
 * Checks that a run export is JSON within the bounds of run exports.
 * @returns the bytes of its JSON text
 * @throws RunExportTooLargeError past 64 MiB; ValueTooDeepError past 160 levels; NotJsonError
 */
export function checkRunExportSize(value: unknown, source = 'the run export'): number {
  const bytes = checkJsonBounds(value, source, {
    maxBytes: Number.MAX_SAFE_INTEGER,
    maxDepth: MAX_RUN_EXPORT_DEPTH,
  });
  if (bytes > MAX_RUN_EXPORT_BYTES) throw new RunExportTooLargeError(source, bytes, MAX_RUN_EXPORT_BYTES);
  return bytes;
}
