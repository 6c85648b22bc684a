/**
 * `npm run bench`: throughput of N trivial Flotilla runs (a mock model, one turn) against N raw
 * BullMQ jobs doing the same work (one call of the same mock model), on the same Redis, with the
 * same worker concurrency, in the same process and run. Prints JSON lines, the ratio last.
 * Not a test: nothing here asserts a timing. Then the bytes a finished one-turn run keeps in
 * Redis (`run-storage.mjs`), as one more JSON line.
 *
 * Env: REDIS_URL (default redis://127.0.0.1:6379), BENCH_RUNS (default 500),
 * BENCH_CONCURRENCY (default 8), BENCH_TIMEOUT_MS (default 100000; the bench fails past it).
 */
import { randomUUID } from 'node:crypto';
import { createAgent, promptChat } from '@flotilla/runtime';
import { createClient } from '@flotilla/runtime/client';
import { agentQueueName, bullmqPrefix } from '@flotilla/runtime/internals';
import { createMockModel } from '@flotilla/runtime/testing';
import { createWorker } from '@flotilla/runtime/worker';
import { Queue, Worker } from 'bullmq';
import { pino } from 'pino';
import { BenchConnections } from './bench-connections.mjs';
import { positiveInteger } from './positive-integer.mjs';
import { measureRunStorage } from './run-storage.mjs';
import { timedJobs } from './timed-jobs.mjs';

const url = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const runs = positiveInteger('BENCH_RUNS', 500);
const concurrency = positiveInteger('BENCH_CONCURRENCY', 8);
const timeoutMs = positiveInteger('BENCH_TIMEOUT_MS', 100_000);
const prefix = `flotilla-bench:${randomUUID().slice(0, 8)}`;
const warmupRuns = Math.min(20, runs);

const model = createMockModel({ id: 'bench-model' }).setDefaultResponse('pong');
const TrivialAgent = createAgent({
  id: 'trivial',
  model: 'bench-model',
  handler: async () => (await promptChat({ message: 'ping' })).data,
});

/** The same work a trivial run does, for raw BullMQ: one call of the same mock model. */
async function trivialWork() {
  const response = await model.generate({ messages: [{ role: 'user', content: 'ping' }] });
  return response.message.content;
}

const connections = new BenchConnections(url);

/** Times `count` jobs of `queueName` (under `queuePrefix`) submitted through `submit`. */
function timed(queueName, count, submit, queuePrefix = prefix) {
  return timedJobs({ connection: connections.connect(), queueName, prefix: queuePrefix }, count, submit);
}

async function benchFlotilla(queueName, count) {
  const worker = createWorker({
    agents: [TrivialAgent],
    models: { 'bench-model': model },
    connection: url,
    prefix,
    queueName,
    concurrency,
    logger: pino({ level: 'silent' }),
    env: {},
  });
  const client = createClient({ connection: url, prefix, queueName, env: {} });
  try {
    await worker.waitUntilReady();
    // Routing by agent: the agent's own queue, under BullMQ's one hash tag.
    return await timed(
      agentQueueName(queueName, TrivialAgent.id),
      count,
      (index) => client.submit(TrivialAgent, { index }),
      bullmqPrefix(prefix),
    );
  } finally {
    await client.close();
    await worker.close();
  }
}

async function benchBullmq(queueName, count) {
  const queue = new Queue(queueName, { connection: connections.connect(), prefix });
  const worker = new Worker(queueName, () => trivialWork(), {
    connection: connections.connect(),
    prefix,
    concurrency,
  });
  try {
    await worker.waitUntilReady();
    return await timed(queueName, count, (index) =>
      queue.add('trivial', { index }, { removeOnComplete: { age: 3600, count: 1000 } }),
    );
  } finally {
    await worker.close();
    await queue.close();
  }
}

function report(bench, result) {
  const line = {
    bench,
    runs,
    concurrency,
    seconds: Number(result.seconds.toFixed(3)),
    runsPerSecond: Number((runs / result.seconds).toFixed(1)),
    failed: result.failed,
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
  return line;
}

async function main() {
  const timer = setTimeout(() => {
    process.stderr.write(`bench: not done within ${timeoutMs} ms (BENCH_TIMEOUT_MS); lower BENCH_RUNS.\n`);
    process.exit(1);
  }, timeoutMs);
  try {
    // Warm both paths up (JIT, connections, Lua script loading) before timing either.
    await benchBullmq('warmup-bullmq', warmupRuns);
    await benchFlotilla('warmup-flotilla', warmupRuns);
    const bullmq = report('bullmq', await benchBullmq('bullmq', runs));
    const flotilla = report('flotilla', await benchFlotilla('flotilla', runs));
    process.stdout.write(
      `${JSON.stringify({
        bench: 'ratio',
        runs,
        concurrency,
        flotillaOverBullmqThroughput: Number((flotilla.runsPerSecond / bullmq.runsPerSecond).toFixed(3)),
        overheadMsPerRun: Number((((flotilla.seconds - bullmq.seconds) / runs) * 1000).toFixed(3)),
      })}\n`,
    );
    if (bullmq.failed + flotilla.failed > 0) process.exitCode = 1;
    const storageRuns = Math.min(runs, 200);
    const storage = await measureRunStorage({ url, runs: storageRuns, concurrency });
    process.stdout.write(`${JSON.stringify({ bench: 'storage', runs: storageRuns, ...storage })}\n`);
  } finally {
    clearTimeout(timer);
    await connections.deleteKeys(`${prefix}:*`);
    await connections.close();
  }
}

await main();
await import('./fanout.mjs'); // 1 → 10 trees: Flotilla child jobs vs the raw BullMQ step-job pattern
