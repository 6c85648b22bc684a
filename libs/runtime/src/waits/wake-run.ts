/**
 * Waking a parked run (`worker/park-until-woken.ts`) once what it waits for arrived: its wake
 * count goes up (so a worker parking it right now replays instead), then its delayed job is
 * promoted. Store what the run waits for before waking it: the replay must find it.
 */
import type { Job } from 'bullmq';
import type { RedisRunRecords } from '../runs/redis-run-records.js';

/** What {@link wakeRun} needs. */
export interface RunWakeUp {
  records: RedisRunRecords;
  /** The run's job (`runJobFinder`). */
  findJob: (runId: string) => Promise<Job | undefined>;
}

/**
 * Wakes `runId`. `counted`: the wake-up was already counted (a signal or approval script does
 * it in the step that stores it). A job that is not delayed (running, waiting for children, gone)
 * is left as it is: the count makes its worker look again.
 */
export async function wakeRun(wakeUp: RunWakeUp, runId: string, counted = false): Promise<void> {
  if (!counted) await wakeUp.records.addWake(runId);
  const job = await wakeUp.findJob(runId);
  await promoteIfDelayed(job);
}

/** Promotes a delayed job; any other state (taken meanwhile, gone) is fine and left alone. */
export async function promoteIfDelayed(job: Job | undefined): Promise<void> {
  await job?.promote().catch(() => undefined);
}
