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
import { coalesced, floorIds, floorWriter, sendCalls } from './storage-floor.mjs';

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

/** Raw BullMQ plus the storage a Flotilla run writes (`storage-floor.mjs`), or raw alone. */
async function startBullmq({ shape, concurrency, url, prefix, queueName, floor }) {
  const connections = new BenchConnections(url);
  // The floor's command connections coalesce a tick's writes, as a Flotilla worker's do.
  const commands = () => (floor ? coalesced(connections.connect()) : connections.connect());
  const queue = new Queue(queueName, { connection: commands(), prefix });
  const raw = rawProcessor(shape, benchModel(), queue);
  let processor = raw;
  if (floor) {
    const writes = commands();
    const callsOf = floorWriter(floor, 'worker', prefix);
    processor = async (job, token) => {
      // A tree's writes all go with its root's first step; its leaves and collect step write none.
      if (job.name === 'leaf' || job.data.step === 'collect') return raw(job, token);
      const calls = callsOf(floorIds(floor, job.id, job.data.conversationId));
      // A root's fan-out step ends by waiting for its children: its writes go first. Otherwise the
      // first call (start-run) goes before the work, the rest after it.
      const before = job.data.step === 'fan-out' ? calls.length : 1;
      await sendCalls(writes, calls.slice(0, before));
      const output = await raw(job, token);
      await sendCalls(writes, calls.slice(before));
      return output;
    };
  }
  const worker = new Worker(queueName, processor, {
    connection: commands(),
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
