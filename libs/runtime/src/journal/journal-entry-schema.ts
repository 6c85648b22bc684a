/** The stored form of a journal entry, checked wherever one is read back (Redis, run exports). */
import { z } from 'zod';

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
  ]),
  fingerprint: z.string(),
  outcome: z.union([
    z.object({ ok: z.literal(true), value: z.unknown() }),
    z.object({ ok: z.literal(false), error: serializedErrorSchema }),
  ]),
  at: z.number(),
});
