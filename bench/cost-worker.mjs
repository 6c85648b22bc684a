/**
 * The worker side of the cost bench, in a process of its own so its CPU is measured apart from
 * the client's (`process.cpuUsage()`). Driven over IPC by `cost.mjs`:
 *   → { system: 'flotilla' | 'bullmq', shape, concurrency, url, prefix, queueName }  ← { ready: true }
 *   → { cpu: true }    ← { cpu: process.cpuUsage() }
 *   → { close: true }  ← { closed: true }, then the process exits.
 */
import { createWorker } from '@flotilla/runtime/worker';
import { Queue, Worker } from 'bullmq';
import { pino } from 'pino';
import { BenchConnections } from './bench-connections.mjs';
import { benchModel, flotillaAgents, rawProcessor } from './cost-shapes.mjs';

/** @returns {Promise<{ close: () => Promise<void> }>} */
async function startFlotilla({ shape, concurrency, url, prefix, queueName }) {
  const worker = createWorker({
    agents: flotillaAgents[shape],
    models: { 'bench-model': benchModel() },
    connection: url,
    prefix,
    queueName,
    concurrency,
    logger: pino({ level: 'silent' }),
    env: {},
  });
  await worker.waitUntilReady();
  return { close: () => worker.close() };
}

async function startBullmq({ shape, concurrency, url, prefix, queueName }) {
  const connections = new BenchConnections(url);
  const queue = new Queue(queueName, { connection: connections.connect(), prefix });
  const worker = new Worker(queueName, rawProcessor(shape, benchModel(), queue), {
    connection: connections.connect(),
    prefix,
    concurrency,
    removeOnComplete: { age: 3600, count: 1000 },
  });
  await worker.waitUntilReady();
  return {
    close: async () => {
      await worker.close();
      await queue.close();
      await connections.close();
    },
  };
}

/** @type {{ close: () => Promise<void> } | undefined} */
let running;
process.on('message', (message) => {
  const reply = (value) => process.send?.(value);
  if (message.cpu) return reply({ cpu: process.cpuUsage() });
  if (message.close) {
    const closing = running ? running.close() : Promise.resolve();
    closing.finally(() => process.send?.({ closed: true }, () => process.exit(0)));
    return;
  }
  const start = message.system === 'flotilla' ? startFlotilla : startBullmq;
  start(message).then(
    (started) => {
      running = started;
      reply({ ready: true });
    },
    (error) => {
      process.stderr.write(`cost-worker: ${error.stack ?? error}\n`);
      process.exit(1);
    },
  );
});
// The parent died: nothing left to serve.
process.on('disconnect', () => process.exit(0));
