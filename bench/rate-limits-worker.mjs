/**
 * One worker process of `bench/rate-limits.mjs`: serves the `asker` agent, whose one model turn
 * goes through the real `openai` SDK adapter to the bench's fake provider, with the fleet-wide
 * `limits: { rpm }` when BENCH_RPM is set. Prints `ready`; closes on SIGTERM.
 */
import { createOpenAIAdapter } from '@flotilla/adapters/openai';
import { createAgent, promptChat } from '@flotilla/runtime';
import { createWorker } from '@flotilla/runtime/worker';
import { pino } from 'pino';

const rpm = process.env.BENCH_RPM ? Number(process.env.BENCH_RPM) : undefined;
const model = createOpenAIAdapter({
  model: 'fake-model',
  provider: 'fake',
  apiKey: 'bench',
  baseURL: process.env.BENCH_BASE_URL,
  // Without a fleet limit each call backs off on its own, as adapters always did.
  maxRetries: 10,
  ...(rpm !== undefined && { limits: { rpm } }),
});
const Asker = createAgent({
  id: 'asker',
  model: 'limited',
  handler: async ({ n }) => (await promptChat({ message: `question ${n}` })).data,
});
const worker = createWorker({
  agents: [Asker],
  models: { limited: model },
  concurrency: Number(process.env.BENCH_CONCURRENCY ?? 8),
  logger: pino({ level: 'silent' }),
});
await worker.waitUntilReady();
process.stdout.write('ready\n');
process.on('SIGTERM', async () => {
  await worker.close();
  process.exit(0);
});
