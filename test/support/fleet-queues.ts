import { agentQueueName, bullmqPrefix } from '@flotilla/runtime/internals';
import { type JobType, Queue } from 'bullmq';
import type { Cluster, Redis } from 'ioredis';

/**
 * The agent queues of a test prefix (one BullMQ queue per agent), read as one: job counts are
 * summed over every agent queue that exists, a job is looked up in all of them. For tests that
 * count jobs or add raw jobs (`queue(agentId).add(…)`).
 */
export class FleetQueues {
  readonly #connection: Redis;
  readonly #prefix: string;
  readonly #queueName: string;
  readonly #queues = new Map<string, Queue>();

  constructor(connection: Redis, prefix: string, queueName = 'agents') {
    this.#connection = connection;
    this.#prefix = prefix;
    this.#queueName = queueName;
  }

  /** The queue of `agentId`'s runs (of those pinned to `buildId`, when given). */
  queue(agentId: string, buildId?: string): Queue {
    const name = agentQueueName(this.#queueName, agentId, buildId);
    let queue = this.#queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: this.#connection, prefix: bullmqPrefix(this.#prefix) });
      this.#queues.set(name, queue);
    }
    return queue;
  }

  /** Job counts summed over every agent queue with a key in Redis. */
  async getJobCounts(...types: JobType[]): Promise<Record<string, number>> {
    const sums: Record<string, number> = Object.fromEntries(types.map((type) => [type, 0]));
    for (const queue of await this.#existing()) {
      const counts = await queue.getJobCounts(...types);
      for (const type of types) sums[type] = (sums[type] ?? 0) + (counts[type] ?? 0);
    }
    return sums;
  }

  /** The job of `jobId` in whichever agent queue holds it. */
  async getJob(jobId: string) {
    for (const queue of await this.#existing()) {
      const job = await queue.getJob(jobId);
      if (job) return job;
    }
    return undefined;
  }

  async close(): Promise<void> {
    await Promise.all([...this.#queues.values()].map((queue) => queue.close()));
  }

  async #existing(): Promise<Queue[]> {
    const base = `${bullmqPrefix(this.#prefix)}:${this.#queueName}/`;
    // KEYS reads one node: on a cluster, ask every master (the queues all live in the `{q}` slot's).
    const nodes = this.#connection.isCluster
      ? (this.#connection as unknown as Cluster).nodes('master')
      : [this.#connection];
    const keys = (await Promise.all(nodes.map((node) => node.keys(`${base}*`)))).flat();
    const agents = new Set(keys.map((key) => key.slice(base.length).split(':')[0] ?? ''));
    return [...agents].filter((agentId) => agentId !== '').map((agentId) => this.queue(agentId));
  }
}
