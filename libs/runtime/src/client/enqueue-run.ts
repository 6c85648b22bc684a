/**
 * The writes that make a root run exist and wait for a worker, in the order that lets any of
 * them be repeated: the record (idempotent by run id and submission hash), its place in its
 * conversation's line, its job in its agent's queue (BullMQ ignores an existing job id), and
 * `waitingFor: worker` while no live worker serves the agent. The run list indexes (hints, see
 * `run-index.ts`) are written once the record exists, alongside those later writes. Used by
 * `client.submit` and by a worker firing a schedule (`worker/fire-schedule.ts`).
 */
import type { JobsOptions } from 'bullmq';
import type { ConversationGate } from '../gate/conversation-gate.js';
import type { OnConflict } from '../gate/waiting-for.js';
import type { AgentQueues } from '../jobs/agent-queues.js';
import { ENDED_JOB_RETENTION } from '../jobs/ended-job-retention.js';
import type { RunJobData } from '../jobs/run-job-data.js';
import type { ServedAgents } from '../registry/worker-registry.js';
import type { RedisRunRecords } from '../runs/redis-run-records.js';
import type { IndexedRun } from '../runs/run-index.js';
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
  const { records } = services;
  // `run` is a NewRun: the create reads its record fields only (no copy without the job's).
  const { outcome, createdAt } = await records.createUnindexed(run);
  if (outcome === 'conflict') return { kind: 'conflict' };
  if (outcome === 'created') {
    // The index entries go out with the next writes instead of a round trip of their own
    // (after the record exists, as the index wants); every reply is awaited before returning.
    const indexed = records.index.add(indexedRun(run, createdAt));
    const [queue, index] = await Promise.allSettled([queueRun(services, run), indexed]);
    if (queue.status === 'rejected') throw queue.reason;
    if (index.status === 'rejected') throw index.reason;
    return queue.value;
  }
  // The same submission again: index it again (a create that crashed before), and enqueue it
  // unless it started or ended already.
  const existing = await records.get(run.runId);
  if (existing) await records.index.add(existing);
  if (existing?.status !== 'queued') return { kind: 'existing' };
  return queueRun(services, run);
}

/** What the run list indexes keep of a run just created. */
function indexedRun(run: RunToEnqueue, createdAt: number): IndexedRun {
  return {
    runId: run.runId,
    agentId: run.agentId,
    tenant: run.tenant,
    createdAt,
    conversationId: run.conversationId,
    rootRunId: run.rootRunId,
    scheduleId: run.scheduleId,
  };
}

/** The writes after the record: its conversation's line, its job, and `waitingFor: worker`. */
async function queueRun(services: EnqueueServices, run: RunToEnqueue): Promise<Enqueued> {
  let { data } = run;
  let ahead: string[] = [];
  if (run.conversationId !== undefined) {
    // A delayed run does not hold the conversation while it waits for its time.
    const lease = run.delayMs === undefined || run.delayMs <= 0;
    const registration = await services.gate.register(run.conversationId, run.runId, run.onConflict, {
      lease,
    });
    if (registration.kind === 'busy') return { kind: 'busy', holderRunId: registration.holderRunId };
    if (registration.kind === 'registered') ahead = registration.ahead;
    if (registration.kind === 'registered' && registration.leased)
      data = { ...data, conversationLeased: registration.leased };
  }
  await addJob(services.queues, run, data);
  // Said on the record (not a failure): the run starts once a worker serving it comes up.
  const { served } = services;
  if (served && !(await served.serves(run.agentId)))
    await services.records.markUnserved(run.runId, run.agentId);
  return { kind: 'queued', ahead };
}

/** Adds the run's job (with `data`) to its agent's queue (BullMQ ignores a job id it has). */
function addJob(queues: AgentQueues, run: RunToEnqueue, data: RunJobData): Promise<unknown> {
  const options: JobsOptions = { jobId: run.runId, attempts: 1, ...ENDED_JOB_RETENTION };
  if (run.delayMs !== undefined && run.delayMs > 0) options.delay = run.delayMs;
  return queues.queueFor(run.agentId).add(run.agentId, data, options);
}
