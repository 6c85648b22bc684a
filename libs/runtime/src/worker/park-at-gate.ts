/**
 * Parking a job at the waiting gate (`gate/waiting-for.ts`): a run that must wait for something
 * other than a worker slot gives its slot back. Its job goes to BullMQ's delayed set with a
 * bounded delay (the safety re-check) and its record says what it waits for; whoever ends the
 * wait wakes it (promotes the job) at once. The re-check after parking closes the race with a
 * wake-up sent while the job was still active (a promote of an active job does nothing).
 */
import { DelayedError, type Job } from 'bullmq';
import type { WaitingFor } from '../gate/waiting-for.js';
import type { RedisRunRecords } from '../runs/redis-run-records.js';
import { observeGatePark } from '../shared/observation-channels.js';

export interface Parking {
  job: Job;
  token: string | undefined;
  records: RedisRunRecords;
  waitingFor: WaitingFor;
  /** The longest the job stays parked before it looks again by itself. */
  recheckMs: number;
  /** Whether the wait is already over (checked once the job is parked). */
  isOver: () => Promise<boolean>;
  /** Wakes the parked job. */
  wake: () => Promise<void>;
}

/**
 * Parks the job. Returns `false` (nothing parked) when the run already ended.
 * @throws DelayedError once parked: BullMQ's signal that the job changed state
 */
export async function parkAtGate(parking: Parking): Promise<false> {
  const { job, token } = parking;
  const runId = job.id ?? '';
  if (!(await parking.records.park(runId, parking.waitingFor))) return false;
  observeGatePark({ agentId: job.name, kind: parking.waitingFor.kind });
  await job.moveToDelayed(Date.now() + parking.recheckMs, token);
  if (await parking.isOver()) await parking.wake();
  throw new DelayedError();
}
