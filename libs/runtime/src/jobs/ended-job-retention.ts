import type { KeepJobs } from 'bullmq';

/**
 * What BullMQ keeps of a run's job once it ended: nothing. The run record is the source of
 * truth (status, output, error, usage) and outlives the job, so a finished job hash, its entry
 * in the completed/failed index and its payload (up to `maxPayloadBytes`) would only cost memory.
 * The one place this is decided: the client's and the worker's queues add jobs with it, and
 * the worker applies it to jobs added without options (raw `queue.add`).
 */
export const ENDED_JOB_RETENTION: { removeOnComplete: KeepJobs; removeOnFail: KeepJobs } = {
  // `{ count: 0 }` rather than `true`: the worker's defaults only take this form.
  removeOnComplete: { count: 0 },
  removeOnFail: { count: 0 },
};

/**
 * Whether BullMQ keeps a job after it fails for good: only when whoever added it asked for that
 * (`removeOnFail` false, or an age/count to keep); otherwise {@link ENDED_JOB_RETENTION} applies.
 */
export function keepsFailedJob(removeOnFail: boolean | number | KeepJobs | undefined): boolean {
  if (removeOnFail === undefined || removeOnFail === true || removeOnFail === 0) return false;
  if (typeof removeOnFail === 'object') return !('count' in removeOnFail && removeOnFail.count === 0);
  return true;
}
