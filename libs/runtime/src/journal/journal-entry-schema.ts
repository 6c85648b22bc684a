/** The stored form of a journal entry, checked wherever one is read back (Redis, run exports). */
import { z } from 'zod';
import type { JournalEntry } from '../context/journal-entry.js';
import { JournalCorruptedError } from '../errors/run-errors.js';
import { usageStatsSchema } from '../usage/usage-stats.js';

/** A {@link SerializedError} as stored. */
export const serializedErrorSchema: z.ZodType<unknown> = z.lazy(() =>
  z.object({
    name: z.string(),
    message: z.string(),
    stack: z.string().optional(),
    data: z.record(z.string(), z.unknown()).optional(),
    cause: serializedErrorSchema.optional(),
  }),
);

/** A journal entry as stored (checked on load and in run exports). */
export const journalEntrySchema = z.object({
  kind: z.enum([
    'model-turn',
    'tool',
    'child',
    'memo',
    'reborn',
    'conversation-load',
    'conversation-append',
    'progress',
    'context-summary',
    'approval',
    'signal',
    'sleep',
    'patch',
    'tool-usage',
  ]),
  fingerprint: z.string(),
  outcome: z.union([
    z.object({ ok: z.literal(true), value: z.unknown() }),
    z.object({ ok: z.literal(false), error: serializedErrorSchema }),
  ]),
  at: z.number(),
  usage: usageStatsSchema.optional(),
  ownUsage: usageStatsSchema.optional(),
  costs: usageStatsSchema.shape.costs.optional(),
});

/**
 * A stored journal entry (JSON text) of run `runId` at `position`, checked.
 * @throws JournalCorruptedError naming the run and position when it is not JSON or not an entry
 */
export function parseJournalEntry(runId: string, position: string, text: string): JournalEntry {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new JournalCorruptedError(runId, position, 'not JSON');
  }
  const parsed = journalEntrySchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new JournalCorruptedError(runId, position, `${issue?.path.join('.')}: ${issue?.message}`);
  }
  return parsed.data as JournalEntry;
}
