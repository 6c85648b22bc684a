/**
 * Lists every Redis command one run of a cost-bench shape sends (worker and client), in order:
 * `MONITOR` on a private `redis-server` while ONE run executes after five warm-up runs (issue 15:
 * the quickest way to see what a change adds or removes). Usage, after `npm run build`:
 * `node bench/monitor-run.mjs [one-turn|conversation|fanout]`. Prints one line per command
 * (`<client address> <command> <args…>`, or `lua …` for a command a script ran; long arguments
 * cut), then the total and the count by command. Not a test.
 */
import { randomUUID } from 'node:crypto';
import { createClient } from '@flotilla/runtime/client';
import { createWorker } from '@flotilla/runtime/worker';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { benchModel, flotillaAgents, flotillaSubmission } from './cost-shapes.mjs';
import { startPrivateRedis } from './private-redis.mjs';

const shape = process.argv[2] ?? 'one-turn';
const redis = await startPrivateRedis();
const prefix = `bench-monitor:${randomUUID().slice(0, 8)}`;
const common = { connection: redis.url, prefix, queueName: 'agents', env: {} };
const worker = createWorker({
  ...common,
  agents: flotillaAgents[shape],
  models: { 'bench-model': benchModel() },
  concurrency: 8,
  logger: pino({ level: 'silent' }),
});
await worker.waitUntilReady();
const client = createClient(common);
const runOne = async () => {
  const { agent, input, options } = flotillaSubmission(shape);
  return (await client.submit(agent, input, options)).result();
};
for (let i = 0; i < 5; i++) await runOne();
await new Promise((resolve) => setTimeout(resolve, 300));
const monitor = await new Redis(redis.url).monitor();
const lines = [];
monitor.on('monitor', (_time, args, source) => {
  lines.push([source, ...args.map((arg) => (arg.length > 60 ? `${arg.slice(0, 57)}…` : arg))].join(' '));
});
await new Promise((resolve) => setTimeout(resolve, 100));
const skip = lines.length;
await runOne();
await new Promise((resolve) => setTimeout(resolve, 300));
monitor.disconnect();
// BullMQ's idle fetches (moveToActive finding nothing, BZPOPMIN on the marker) are included.
const ofRun = lines.slice(skip);
for (const line of ofRun) console.log(line);
const counts = {};
for (const line of ofRun) {
  const command = line.split(' ')[1].toLowerCase();
  counts[command] = (counts[command] ?? 0) + 1;
}
console.log(ofRun.length, 'commands', JSON.stringify(counts));
await client.close();
await worker.close();
await redis.stop();
process.exit(0);
