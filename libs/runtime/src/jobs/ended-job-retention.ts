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
