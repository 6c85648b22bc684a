/**
 * The deadline job of a run: a BullMQ delayed job on the agents queue, added when a run with a
 * deadline suspends on child runs, so the deadline holds while no worker executes the run. When
 * it fires and the run is still waiting (or queued), it ends `failed` with `RunTimeoutError`
 * and its tree is cancelled. Its id derives from the run id, so adding it again is a no-op.
 */
import { z } from 'zod';

/** The job name of deadline jobs; `~` is outside the ids a submission accepts, so no agent has it. */
export const DEADLINE_JOB_NAME = '~deadline';

/**
 * The id of `runId`'s deadline job. `~~` keeps it apart from every stored run id, which holds
 * at most one `~` (between a tenant and its id: `acme~r1`; a no-tenant run `r1` must not share
 * its deadline job id with tenant `r1`'s run `deadline`).
 */
export function deadlineJobId(runId: string): string {
  return `${runId}~~deadline`;
}

export const deadlineJobDataSchema = z.object({ runId: z.string().min(1), deadline: z.int().min(0) });

export type DeadlineJobData = z.infer<typeof deadlineJobDataSchema>;
