/**
 * Routing by agent (ARCHITECTURE.md §9): each agent has its own BullMQ queue, and a worker
 * consumes exactly the queues of the agents it serves, so no worker ever takes a run it cannot
 * execute. The queue name is `<queueName>/<agentId>` (`/` is in no id, so a later
 * `<queueName>/<agentId>/<buildId>` for routing by build stays unambiguous; BullMQ forbids `:`).
 * All queues share BullMQ's one hash tag (`bullmqPrefix`), as flows across queues need.
 */
import { type ConnectionOptions, type Job, Queue, type Telemetry } from 'bullmq';
import type { Logger } from 'pino';
import { watchBullmqErrors } from '../config/watch-connection.js';
import { bullmqPrefix } from '../keys.js';

/** The BullMQ queue name of `agentId`'s runs. */
export function agentQueueName(queueName: string, agentId: string): string {
  return `${queueName}/${agentId}`;
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

  /** The queue of `agentId`'s runs (an id already checked by the id rule). */
  queueFor(agentId: string): Queue {
    let queue = this.#queues.get(agentId);
    if (!queue) {
      const { connection, prefix, queueName, logger, role, telemetry } = this.#options;
      queue = new Queue(agentQueueName(queueName, agentId), {
        connection,
        prefix: bullmqPrefix(prefix),
        ...(telemetry && { telemetry }),
      });
      watchBullmqErrors(queue, { role, logger });
      this.#queues.set(agentId, queue);
      // Bounded: a client submitting to many agents keeps only the most recent queues open.
      if (this.#queues.size > MAX_OPEN_QUEUES) this.#evictOldest();
    } else {
      this.#queues.delete(agentId);
      this.#queues.set(agentId, queue);
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

/**
 * A run's job, found in its agent's queue (the record names the agent), or `undefined` when
 * the run or its job is gone.
 */
export function runJobFinder(
  records: { get(runId: string): Promise<{ agentId: string } | undefined> },
  queues: AgentQueues,
): (runId: string) => Promise<Job | undefined> {
  return async (runId) => {
    const record = await records.get(runId);
    if (!record) return undefined;
    return (await queues.queueFor(record.agentId).getJob(runId)) ?? undefined;
  };
}
