/**
 * Routing by agent (ARCHITECTURE.md §9): each agent has its own BullMQ queue, and a worker
 * consumes exactly the queues of the agents it serves, so no worker ever takes a run it cannot
 * execute. The queue name is `<queueName>/<agentId>` (`/` is in no id, so a
 * `<queueName>/<agentId>/<buildId>` stays unambiguous; BullMQ forbids `:`).
 *
 * Routing by build (worker versioning): a run pinned to a build (`FLOTILLA_VERSIONING=pinned`)
 * lives in its build queue `<queueName>/<agentId>/<buildId>`, which only workers of that build or
 * of one declaring it compatible consume. BullMQ moves a suspended job back to wait in the queue
 * it is in, so a pinned run resumes there; new runs are submitted to the agent queue and moved to
 * a build queue by the worker that takes them first (`worker/run-processor.ts`), child runs of a
 * pinned run are added to their build queue directly. All queues share BullMQ's one hash tag
 * (`bullmqPrefix`), as flows across queues need.
 */
import { type ConnectionOptions, type Job, Queue, type Telemetry } from 'bullmq';
import type { Logger } from 'pino';
import { watchBullmqErrors } from '../config/watch-connection.js';
import { bullmqPrefix } from '../keys.js';

/** The BullMQ queue name of `agentId`'s runs (of those pinned to `buildId`, when given). */
export function agentQueueName(queueName: string, agentId: string, buildId?: string): string {
  return buildId === undefined ? `${queueName}/${agentId}` : `${queueName}/${agentId}/${buildId}`;
}

/**
 * The build a job's queue is pinned to: `undefined` for the agent queue of `agentId`, and for a
 * queue that is not one of `agentId`'s.
 */
export function pinnedBuildOfQueue(queueName: string, agentId: string, jobQueue: string): string | undefined {
  const agentQueue = agentQueueName(queueName, agentId);
  return jobQueue.startsWith(`${agentQueue}/`) ? jobQueue.slice(agentQueue.length + 1) : undefined;
}

/** Queue objects one producer keeps open (each costs listeners and loaded scripts, no connection). */
const MAX_OPEN_QUEUES = 256;

/** What {@link AgentQueues} opens its queues with. */
export interface AgentQueuesOptions {
  /** A connection every queue shares (BullMQ does not close a connection it was given). */
  connection: ConnectionOptions;
  /** Flotilla's key prefix (BullMQ's is derived from it). */
  prefix: string;
  /** `FLOTILLA_QUEUE`: the first part of every agent queue's name. */
  queueName: string;
  /** Where connection errors are reported. */
  logger: Logger;
  role: string;
  /** BullMQ telemetry (`bullmq-otel`): a job added carries its trace context. @default none */
  telemetry?: Telemetry | undefined;
}

/** The queues of a producer (client, worker adding child runs), opened on first use. */
export class AgentQueues {
  readonly #options: AgentQueuesOptions;
  readonly #queues = new Map<string, Queue>();

  constructor(options: AgentQueuesOptions) {
    this.#options = options;
  }

  /**
   * The queue of `agentId`'s runs (an id already checked by the id rule), or of those pinned to
   * `buildId` (a build label already checked by the config's rule).
   */
  queueFor(agentId: string, buildId?: string): Queue {
    const name = agentQueueName(this.#options.queueName, agentId, buildId);
    let queue = this.#queues.get(name);
    if (!queue) {
      const { connection, prefix, logger, role, telemetry } = this.#options;
      queue = new Queue(name, {
        connection,
        prefix: bullmqPrefix(prefix),
        ...(telemetry && { telemetry }),
      });
      watchBullmqErrors(queue, { role, logger });
      this.#queues.set(name, queue);
      // Bounded: a client submitting to many agents keeps only the most recent queues open.
      if (this.#queues.size > MAX_OPEN_QUEUES) this.#evictOldest();
    } else {
      this.#queues.delete(name);
      this.#queues.set(name, queue);
    }
    return queue;
  }

  #evictOldest(): void {
    const [oldest] = this.#queues;
    if (!oldest) return;
    this.#queues.delete(oldest[0]);
    oldest[1]
      .close()
      .catch((error: unknown) => this.#options.logger.warn({ err: error }, 'queue not closed'));
  }

  async close(): Promise<void> {
    await Promise.all([...this.#queues.values()].map((queue) => queue.close()));
    this.#queues.clear();
  }
}

/** What locates a run's job: its agent and, for a pinned run, its build. */
export interface RunQueuePlace {
  agentId: string;
  pinnedBuild?: string | undefined;
}

/**
 * A run's job, found in its build queue when the run is pinned, else (or while a pinned root run
 * is being moved there) in its agent's queue; `undefined` when the run or its job is gone.
 */
export function runJobFinder(
  records: { get(runId: string): Promise<RunQueuePlace | undefined> },
  queues: AgentQueues,
): (runId: string) => Promise<Job | undefined> {
  return async (runId) => {
    const record = await records.get(runId);
    if (!record) return undefined;
    return findRunJob(queues, record, runId);
  };
}

/** The job of run `runId` placed at `place`, or `undefined` (see {@link runJobFinder}). */
export async function findRunJob(
  queues: AgentQueues,
  place: RunQueuePlace,
  runId: string,
): Promise<Job | undefined> {
  if (place.pinnedBuild !== undefined) {
    const pinned = await queues.queueFor(place.agentId, place.pinnedBuild).getJob(runId);
    if (pinned) return pinned;
  }
  return (await queues.queueFor(place.agentId).getJob(runId)) ?? undefined;
}
