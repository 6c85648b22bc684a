/**
 * Times a batch of BullMQ jobs: submits `count` of them at once and waits, through the queue's
 * events, until every one completed or failed. Shared by the benches (`run.mjs`, `tracing.mjs`).
 * Flotilla's runs are jobs in their agent's queue (`agentQueueName`) under BullMQ's `{q}` prefix
 * (`bullmqPrefix`); a raw BullMQ queue is watched under the bench's own prefix.
 */
import { QueueEvents } from 'bullmq';

/**
 * @param {{ connection: import('ioredis').Redis, queueName: string, prefix: string }} queue
 * @param {number} count
 * @param {(index: number) => Promise<unknown>} submit
 * @returns {Promise<{ seconds: number, failed: number }>}
 */
export async function timedJobs({ connection, queueName, prefix }, count, submit) {
  const events = new QueueEvents(queueName, { connection, prefix });
  await events.waitUntilReady();
  let completed = 0;
  let failed = 0;
  const settled = new Promise((resolve) => {
    const check = () => completed + failed >= count && resolve();
    events.on('completed', () => {
      completed += 1;
      check();
    });
    events.on('failed', () => {
      failed += 1;
      check();
    });
  });
  try {
    const start = performance.now();
    await Promise.all(Array.from({ length: count }, (_, index) => submit(index)));
    await settled;
    return { seconds: (performance.now() - start) / 1000, failed };
  } finally {
    await events.close();
  }
}
