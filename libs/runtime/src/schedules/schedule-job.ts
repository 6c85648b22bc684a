/**
 * The job a schedule's BullMQ job scheduler produces at each firing (in the agent's queue, so
 * only a worker serving the agent takes it). It is not the run: the worker turns it into a
 * normal run (`worker/fire-schedule.ts`) with its own record and job, and the run id
 * `<scheduleId>-<due time>`, so a firing handled twice makes one run.
 */
import { z } from 'zod';
import { storedIdSchema } from '../jobs/id-rule.js';

/** The job name of a schedule's firings (`~` is no id character: no agent has this id). */
export const SCHEDULE_JOB_NAME = '~schedule';

export const scheduleJobDataSchema = z.object({
  /** The stored schedule id (qualified by its tenant). */
  scheduleId: storedIdSchema,
  agentId: z.string(),
  /** The run input as JSON text. */
  input: z.string(),
  /** The stored conversation id. */
  conversationId: storedIdSchema.optional(),
  tenant: z.string().optional(),
});

export type ScheduleJobData = z.infer<typeof scheduleJobDataSchema>;

/** The run id of the firing due at `dueAt` (epoch ms). */
export function firingRunId(storedScheduleId: string, dueAt: number): string {
  return `${storedScheduleId}-${Math.max(0, Math.trunc(dueAt))}`;
}

/**
 * When a firing job was due: BullMQ names it `repeat:<schedulerId>:<due ms>`; else its
 * creation plus its delay.
 */
export function dueTimeOf(job: {
  id?: string | undefined;
  timestamp: number;
  opts: { delay?: number };
}): number {
  const due = Number(/:(\d+)$/.exec(job.id ?? '')?.[1]);
  return Number.isSafeInteger(due) ? due : job.timestamp + (job.opts.delay ?? 0);
}
