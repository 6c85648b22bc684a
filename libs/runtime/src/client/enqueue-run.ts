/**
 * The writes that make a root run exist and wait for a worker, in the order that lets any of
 * them be repeated: the record (idempotent by run id and submission hash), its place in its
 * conversation's line, its job in its agent's queue (BullMQ ignores an existing job id), and
 * `waitingFor: worker` while no live worker serves the agent. Used by `client.submit` and by a
 * worker firing a schedule (`worker/fire-schedule.ts`).
 */
import type { ConversationGate } from '../gate/conversation-gate.js';
import type { OnConflict } from '../gate/waiting-for.js';
import type { AgentQueues } from '../jobs/agent-queues.js';
import { ENDED_JOB_RETENTION } from '../jobs/ended-job-retention.js';
import type { RunJobData } from '../jobs/run-job-data.js';
import type { ServedAgents } from '../registry/worker-registry.js';
import type { RedisRunRecords } from '../runs/redis-run-records.js';
import type { NewRun } from '../runs/run-script-args.js';

export interface EnqueueServices {
  records: RedisRunRecords;
  gate: ConversationGate;
  queues: AgentQueues;
  served: ServedAgents | undefined;
}

/** A root run to enqueue (stored ids). */
export interface RunToEnqueue extends NewRun {
  data: RunJobData;
  onConflict: OnConflict;
  /** Not before this many ms from now (the job waits in BullMQ's delayed set). @default 0 */
  delayMs?: number | undefined;
}

/** What enqueueing did. */
export type Enqueued =
  /** The job is in its agent's queue; `ahead`: runs to cancel for `interrupt` / `rollback`. */
  | { kind: 'queued'; ahead: string[] }
  /** The run existed already and is no longer queued (started or ended): nothing added. */
  | { kind: 'existing' }
  /** The run id is taken by another submission: nothing written. */
  | { kind: 'conflict' }
  /** `reject`: another run holds or waits for the conversation; no job was added. */
  | { kind: 'busy'; holderRunId: string };

export async function enqueueRun(services: EnqueueServices, run: RunToEnqueue): Promise<Enqueued> {
  const { records, gate, queues, served } = services;
  const { data, onConflict, delayMs, ...record } = run;
  const created = await records.create(record);
  if (created === 'conflict') return { kind: 'conflict' };
  // A record created just now is queued (no job exists yet to start it): no need to read it.
  if (created !== 'created' && (await records.get(run.runId))?.status !== 'queued')
    return { kind: 'existing' };
  let ahead: string[] = [];
  if (run.conversationId !== undefined) {
    const registration = await gate.register(run.conversationId, run.runId, onConflict);
    if (registration.kind === 'busy') return { kind: 'busy', holderRunId: registration.holderRunId };
    if (registration.kind === 'registered') ahead = registration.ahead;
  }
  await queues.queueFor(run.agentId).add(run.agentId, data, {
    jobId: run.runId,
    attempts: 1,
    ...(delayMs !== undefined && delayMs > 0 && { delay: delayMs }),
    ...ENDED_JOB_RETENTION,
  });
  // Said on the record (not a failure): the run starts once a worker serving it comes up.
  if (served && !(await served.serves(run.agentId))) await records.markUnserved(run.runId, run.agentId);
  return { kind: 'queued', ahead };
}
