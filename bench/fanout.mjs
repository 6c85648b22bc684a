/**
 * Fan-out bench: throughput of 1 → 10 trees, Flotilla (a root agent awaiting ten child agents
 * with `Promise.all`: child jobs, suspension, replay) against the raw BullMQ step-job pattern
 * (the parent adds ten children, `moveToWaitingChildren`, resumes at its saved step and reads
 * `getChildrenValues`), on the same Redis, with the same worker concurrency, in the same
 * process and run. Prints JSON lines, the ratio last. Not a test: nothing here asserts a timing.
 *
 * Env: REDIS_URL (default redis://127.0.0.1:6379), BENCH_TREES (default 100),
 * BENCH_CONCURRENCY (default 8), BENCH_TIMEOUT_MS (default 120000; the bench fails past it).
 */
import { randomUUID } from 'node:crypto';
import { createAgent } from '@flotilla/runtime';
import { createClient } from '@flotilla/runtime/client';
import { agentQueueName, bullmqPrefix } from '@flotilla/runtime/internals';
import { createWorker } from '@flotilla/runtime/worker';
import { Queue, QueueEvents, WaitingChildrenError, Worker } from 'bullmq';
import { pino } from 'pino';
import { BenchConnections } from './bench-connections.mjs';
import { positiveInteger } from './positive-integer.mjs';

const WIDTH = 10;
const url = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const trees = positiveInteger('BENCH_TREES', 100);
const concurrency = positiveInteger('BENCH_CONCURRENCY', 8);
const timeoutMs = positiveInteger('BENCH_TIMEOUT_MS', 120_000);
const prefix = `flotilla-bench-fanout:${randomUUID().slice(0, 8)}`;

const Leaf = createAgent({ id: 'bench-leaf', handler: async ({ n }) => n * 2 });
const Root = createAgent({
  id: 'bench-root',
  handler: async () => {
    const values = await Promise.all(Array.from({ length: WIDTH }, (_, n) => Leaf({ n })));
    return values.reduce((sum, value) => sum + value, 0);
  },
});

const connections = new BenchConnections(url);

/** Resolves when every job id in `roots` completed (or rejects when one failed), or times out. */
async function rootsDone(queueName, roots, queuePrefix = prefix) {
  // From the start of the (fresh) stream: a completion before the blocking read began is not missed.
  const events = new QueueEvents(queueName, {
    connection: connections.connect(),
    prefix: queuePrefix,
    lastEventId: '0-0',
  });
  await events.waitUntilReady();
  const pending = new Set(roots);
  const done = new Promise((resolve, reject) => {
    events.on('completed', ({ jobId }) => {
      pending.delete(jobId);
      if (pending.size === 0) resolve();
    });
    events.on('failed', ({ jobId, failedReason }) => {
      if (pending.has(jobId)) reject(new Error(`root ${jobId} failed: ${failedReason}`));
    });
  });
  const timeout = new Promise((_, reject) =>
    setTimeout(() => reject(new Error(`not done within ${timeoutMs} ms`)), timeoutMs).unref(),
  );
  return { wait: () => Promise.race([done, timeout]), close: () => events.close() };
}

async function benchFlotilla() {
  const queueName = 'agents';
  const worker = createWorker({
    agents: [Root, Leaf],
    connection: url,
    prefix,
    queueName,
    concurrency,
    logger: pino({ level: 'silent' }),
  });
  await worker.waitUntilReady();
  const client = createClient({ connection: url, prefix, queueName });
  const roots = Array.from({ length: trees }, () => randomUUID());
  // Routing by agent: the roots complete in their agent's queue, under BullMQ's one hash tag.
  const watch = await rootsDone(agentQueueName(queueName, 'bench-root'), roots, bullmqPrefix(prefix));
  const started = performance.now();
  await Promise.all(roots.map((runId) => client.submit('bench-root', {}, { runId })));
  await watch.wait();
  const seconds = (performance.now() - started) / 1000;
  const sample = await client.getRun(roots[0]);
  if (sample?.output !== 90) throw new Error(`flotilla tree answered ${JSON.stringify(sample?.output)}`);
  await watch.close();
  await client.close();
  await worker.close();
  return seconds;
}

/** The raw BullMQ step-job pattern with the same tree. */
async function benchRawBullmq() {
  const queueName = 'raw';
  const connection = connections.connect();
  const queue = new Queue(queueName, { connection, prefix });
  const worker = new Worker(
    queueName,
    async (job, token) => {
      if (job.name === 'leaf') return job.data.n * 2;
      if (job.data.step === 'fan-out') {
        await Promise.all(
          Array.from({ length: WIDTH }, (_, n) =>
            queue.add('leaf', { n }, { parent: { id: job.id, queue: job.queueQualifiedName } }),
          ),
        );
        await job.updateData({ step: 'collect' });
        if (await job.moveToWaitingChildren(token)) throw new WaitingChildrenError();
      }
      const values = Object.values(await job.getChildrenValues());
      return values.reduce((sum, value) => sum + value, 0);
    },
    { connection: connections.connect(), prefix, concurrency },
  );
  await worker.waitUntilReady();
  const roots = Array.from({ length: trees }, () => randomUUID());
  const watch = await rootsDone(queueName, roots);
  const started = performance.now();
  await Promise.all(roots.map((jobId) => queue.add('root', { step: 'fan-out' }, { jobId })));
  await watch.wait();
  const seconds = (performance.now() - started) / 1000;
  const sample = await queue.getJob(roots[0]);
  if (sample?.returnvalue !== 90) throw new Error(`raw tree answered ${JSON.stringify(sample?.returnvalue)}`);
  await watch.close();
  await worker.close();
  await queue.close();
  return seconds;
}

function line(system, seconds) {
  const jobs = trees * (WIDTH + 1);
  const result = {
    bench: 'fanout',
    system,
    trees,
    width: WIDTH,
    jobs,
    concurrency,
    seconds: Number(seconds.toFixed(3)),
    treesPerSecond: Number((trees / seconds).toFixed(1)),
    jobsPerSecond: Number((jobs / seconds).toFixed(1)),
  };
  console.log(JSON.stringify(result));
  return result;
}

try {
  const raw = line('bullmq-step-jobs', await benchRawBullmq());
  const flotilla = line('flotilla', await benchFlotilla());
  console.log(
    JSON.stringify({
      bench: 'fanout',
      ratio: 'flotilla / bullmq-step-jobs jobs per second',
      value: Number((flotilla.jobsPerSecond / raw.jobsPerSecond).toFixed(3)),
    }),
  );
} finally {
  await connections.deleteKeys(`${prefix}*`);
  await connections.close();
}
