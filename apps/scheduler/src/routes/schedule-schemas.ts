import { type ScheduleInfo, scheduleRequestSchema } from '@flotilla/runtime/client';
import { ID_PATTERN, ID_RULE } from '@flotilla/runtime/internals';
import { z } from '@hono/zod-openapi';

/** `POST /schedules`: the runtime's one schedule schema (the client checks it once more, with the cron/everyMs rule). */
export const scheduleBodySchema = scheduleRequestSchema;

/** Every field of {@link ScheduleInfo}, typed against it (a new field fails the build until described). */
const scheduleShape = {
  id: z.string(),
  agentId: z.string(),
  input: z.unknown().openapi({ description: "Every firing's run input (JSON)" }),
  cron: z.string().optional().openapi({ description: 'Cron pattern (5 fields, or 6 with seconds)' }),
  everyMs: z.int().optional().openapi({ description: 'Interval between firings, ms' }),
  startAt: z.number().optional().openapi({ description: 'No firing before this epoch ms' }),
  timezone: z.string().optional().openapi({ description: 'IANA time zone of `cron` (default UTC)' }),
  conversationId: z.string().optional().openapi({ description: 'Every firing continues this conversation' }),
  nextRunAt: z.number().optional().openapi({ description: 'When it fires next, epoch ms' }),
  served: z.boolean().openapi({
    description:
      'Whether a live worker serves its agent; while none does its next firing waits in the queue (missed firings are not made up)',
  }),
  updatedAt: z.number().openapi({ description: 'When it was last saved, epoch ms' }),
} satisfies Record<keyof ScheduleInfo, z.ZodType>;

export const scheduleSchema = z.object(scheduleShape).openapi('Schedule');

export const scheduleListSchema = z.object({ schedules: z.array(scheduleSchema) }).openapi('ScheduleList');

export const removedScheduleSchema = z
  .object({ id: z.string(), removed: z.literal(true) })
  .openapi('RemovedSchedule');

/** The `{id}` path parameter of schedule routes. */
export const scheduleIdParamsSchema = z.object({
  id: z
    .string()
    .regex(ID_PATTERN, { error: `must be a schedule id (${ID_RULE})` })
    .openapi({ param: { name: 'id', in: 'path' }, example: 'nightly-report' }),
});
