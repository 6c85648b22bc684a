/**
 * A worker process of the scale-out bench: serves `scale-one-turn` (one model turn) with a mock
 * model that answers after `BENCH_LATENCY_MS`, at `BENCH_CONCURRENCY`. Prints `ready` once it
 * listens; closes on SIGTERM. Env: REDIS_URL (a cluster URL too), FLOTILLA_PREFIX.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createAgent, promptChat } from '@flotilla/runtime';
import { createMockModel } from '@flotilla/runtime/testing';
import { createWorker } from '@flotilla/runtime/worker';
import { pino } from 'pino';
import { positiveInteger } from './positive-integer.mjs';

const latencyMs = positiveInteger('BENCH_LATENCY_MS', 200);
const model = createMockModel({ id: 'scale-model', record: false });
model
  .when(() => true)
  .thenDo(async () => {
    await sleep(latencyMs);
    return {
      message: { role: 'assistant', content: 'pong' },
      usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 },
      finishReason: { unified: 'stop' },
    };
  });

export const ScaleAgent = createAgent({
  id: 'scale-one-turn',
  model: 'scale-model',
  handler: async () => (await promptChat({ message: 'ping' })).data,
});

const worker = createWorker({
  agents: [ScaleAgent],
  models: { 'scale-model': model },
  connection: process.env.REDIS_URL,
  prefix: process.env.FLOTILLA_PREFIX,
  concurrency: positiveInteger('BENCH_CONCURRENCY', 10),
  logger: pino({ level: process.env.LOG_LEVEL ?? 'fatal' }, pino.destination(2)),
});
await worker.waitUntilReady();
process.stdout.write('ready\n');
process.on('SIGTERM', async () => {
  await worker.close();
  process.exit(0);
});
