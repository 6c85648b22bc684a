/**
 * The worker side of `suspendUntil` (`engine/suspend-until.ts`): an execution that suspended on
 * durable waits only (no child runs) gives its slot back; its job goes to BullMQ's delayed set
 * until the earliest wait is due (`wakeAt`), bounded by {@link WAIT_RECHECK_MS}, and whoever
 * ends a wait wakes it at once (`waits/wake-run.ts`). A wake-up can race the parking: the run's
 * wake count, read before the execution began, is read again before and after the job moves —
 * when it changed, the run is replayed at once (or its job promoted), so nothing is slept through.
 */
import type { Job } from 'bullmq';
import type { RunSuspension } from '../context/run-services.js';
import type { RedisRunRecords } from '../runs/redis-run-records.js';
import { promoteIfDelayed } from '../waits/wake-run.js';

/**
 * The longest a parked run sleeps before it looks again by itself (a wake-up lost to a crash
 * between storing a signal and promoting the job costs at most this much).
 */
export const WAIT_RECHECK_MS = 15 * 60_000;

export interface ParkUntilWoken {
  job: Job;
  token: string | undefined;
  records: RedisRunRecords;
  suspension: RunSuspension;
  /** The run's wake count before the execution began. */
  wakesBefore: number;
}

/**
 * Parks the job until its waits are due or woken. Returns `false` (nothing parked) when a wait
 * is already due or a wake-up came during the execution: replay at once then.
 */
export async function parkUntilWoken(parking: ParkUntilWoken): Promise<boolean> {
  const { job, token, records, suspension, wakesBefore } = parking;
  const runId = job.id ?? '';
  const now = Date.now();
  const due = Math.min(suspension.wakeAt ?? Number.POSITIVE_INFINITY, now + WAIT_RECHECK_MS);
  if (due <= now || (await records.wakes(runId)) !== wakesBefore) return false;
  await job.moveToDelayed(due, token);
  if ((await records.wakes(runId)) !== wakesBefore) await promoteIfDelayed(job);
  return true;
}
