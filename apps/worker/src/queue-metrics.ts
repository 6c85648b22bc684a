import { bullmqPrefix } from '@flotilla/runtime/internals';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { Gauge, type Registry } from 'prom-client';
import type { WatchedQueue } from './watched-queues.js';

/** BullMQ job states reported by `flotilla_queue_jobs` (`waiting-children` is `flotilla_runs_suspended`). */
const STATES = ['waiting', 'active', 'delayed', 'prioritized'] as const;

/** The queue gauges and what they read from; {@link close} closes the queues. */
export interface QueueMetrics {
  close(): Promise<void>;
}

/**
 * Registers `flotilla_queue_jobs{queue,agent,state}` and `flotilla_runs_suspended{queue,agent}`,
 * read from Redis on each scrape (one `getJobCounts` per watched queue, bounded by `timeoutMs`:
 * a scrape during a Redis outage reports the last values instead of hanging).
 */
export function registerQueueMetrics(
  registry: Registry,
  queues: readonly WatchedQueue[],
  connection: Redis,
  options: { prefix: string; timeoutMs: number },
): QueueMetrics {
  const opened = queues.map((watched) => ({
    watched,
    queue: new Queue(watched.name, { connection, prefix: bullmqPrefix(options.prefix) }),
  }));
  // A queue's 'error' without a listener would crash the process; the probe connection logs outages.
  for (const { queue } of opened) queue.on('error', () => {});
  // A failed read leaves the gauges at their last values: /metrics still answers.
  const read = () =>
    Promise.all(
      opened.map(async ({ watched, queue }) => ({
        watched,
        counts: await withDeadline(queue.getJobCounts(...STATES, 'waiting-children'), options.timeoutMs),
      })),
    ).catch(() => []);
  let latest: Promise<Awaited<ReturnType<typeof read>>> | undefined;
  // Both gauges read the same counts within one scrape.
  const counts = () => {
    latest ??= read().finally(() => {
      latest = undefined;
    });
    return latest;
  };
  new Gauge({
    name: 'flotilla_queue_jobs',
    help: 'Jobs in the worker’s watched queues by BullMQ state (delayed: runs parked at the waiting gate, retry backoffs and run deadline timers).',
    labelNames: ['queue', 'agent', 'state'] as const,
    registers: [registry],
    async collect() {
      for (const { watched, counts: byState } of await counts())
        for (const state of STATES)
          this.set({ queue: watched.name, agent: watched.agent, state }, byState[state] ?? 0);
    },
  });
  new Gauge({
    name: 'flotilla_runs_suspended',
    help: 'Runs suspended on their child runs (BullMQ waiting-children): they hold no worker slot.',
    labelNames: ['queue', 'agent'] as const,
    registers: [registry],
    async collect() {
      for (const { watched, counts: byState } of await counts())
        this.set({ queue: watched.name, agent: watched.agent }, byState['waiting-children'] ?? 0);
    },
  });
  return { close: async () => void (await Promise.all(opened.map(({ queue }) => queue.close()))) };
}

function withDeadline<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`queue counts took over ${timeoutMs} ms`)), timeoutMs);
    timer.unref();
    work.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}
