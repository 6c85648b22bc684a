/**
 * `node bench/tracing.mjs`: the cost of tracing. N trivial runs (a mock model, one turn) with
 * tracing off (no OpenTelemetry SDK: the API's no-op spans) and on (an SDK with a batch span
 * processor to an exporter that drops the spans, BullMQ telemetry on worker and client), next to
 * N raw BullMQ jobs doing the same model call, in one process and run. Prints JSON lines.
 * Not a test: nothing here asserts a timing.
 *
 * Env: REDIS_URL (default redis://127.0.0.1:6379), BENCH_RUNS (default 500), BENCH_CONCURRENCY (default 8).
 */
import { randomUUID } from 'node:crypto';
import { createAgent, promptChat } from '@flotilla/runtime';
import { createClient } from '@flotilla/runtime/client';
import { agentQueueName, bullmqPrefix } from '@flotilla/runtime/internals';
import { createMockModel } from '@flotilla/runtime/testing';
import { createWorker } from '@flotilla/runtime/worker';
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Queue, Worker } from 'bullmq';
import { BullMQOtel } from 'bullmq-otel';
import { pino } from 'pino';
import { BenchConnections } from './bench-connections.mjs';
import { positiveInteger } from './positive-integer.mjs';
import { timedJobs } from './timed-jobs.mjs';

const url = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const runs = positiveInteger('BENCH_RUNS', 500);
const concurrency = positiveInteger('BENCH_CONCURRENCY', 8);
const prefix = `flotilla-bench:${randomUUID().slice(0, 8)}`;
const model = createMockModel({ id: 'bench-model' }).setDefaultResponse('pong');
const TrivialAgent = createAgent({
  id: 'trivial',
  model: 'bench-model',
  handler: async () => (await promptChat({ message: 'ping' })).data,
});
const connections = new BenchConnections(url);
let exportedSpans = 0;

/** Seconds until `count` jobs of `queueName` (under `queuePrefix`) submitted through `submit` settled. */
async function timed(queueName, count, submit, queuePrefix = prefix) {
  const connection = connections.connect();
  return (await timedJobs({ connection, queueName, prefix: queuePrefix }, count, submit)).seconds;
}

async function benchFlotilla(queueName, count, telemetry) {
  const options = { connection: url, prefix, queueName, env: {}, ...(telemetry && { telemetry }) };
  const worker = createWorker({
    ...options,
    agents: [TrivialAgent],
    models: { 'bench-model': model },
    concurrency,
    logger: pino({ level: 'silent' }),
  });
  const client = createClient(options);
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
  const worker = new Worker(
    queueName,
    () => model.generate({ messages: [{ role: 'user', content: 'ping' }] }),
    {
      connection: connections.connect(),
      prefix,
      concurrency,
    },
  );
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

function registerSdk() {
  const exporter = {
    export: (spans, done) => {
      exportedSpans += spans.length;
      done({ code: 0 });
    },
    shutdown: async () => {},
  };
  const provider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter)] });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  return provider;
}

function report(bench, seconds, extra = {}) {
  const line = {
    bench,
    runs,
    concurrency,
    seconds: Number(seconds.toFixed(3)),
    runsPerSecond: Number((runs / seconds).toFixed(1)),
    ...extra,
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
  return line;
}

try {
  await benchBullmq('warmup-bullmq', 20);
  await benchFlotilla('warmup-flotilla', 20);
  const bullmq = report('bullmq', await benchBullmq('bullmq', runs));
  const off = report('flotilla-tracing-off', await benchFlotilla('off', runs));
  const provider = registerSdk();
  await benchFlotilla('warmup-on', 20, new BullMQOtel({ tracerName: 'flotilla' }));
  exportedSpans = 0;
  const on = report(
    'flotilla-tracing-on',
    await benchFlotilla('on', runs, new BullMQOtel({ tracerName: 'flotilla' })),
  );
  await provider.forceFlush();
  process.stdout.write(
    `${JSON.stringify({
      bench: 'tracing-ratio',
      runs,
      concurrency,
      offOverBullmq: Number((off.runsPerSecond / bullmq.runsPerSecond).toFixed(3)),
      onOverBullmq: Number((on.runsPerSecond / bullmq.runsPerSecond).toFixed(3)),
      onOverOff: Number((on.runsPerSecond / off.runsPerSecond).toFixed(3)),
      spansPerRun: Number((exportedSpans / runs).toFixed(1)),
    })}\n`,
  );
  await provider.shutdown();
} finally {
  await connections.deleteKeys(`${prefix}:*`);
  await connections.close();
}
