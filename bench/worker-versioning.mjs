/**
 * What pinning runs to builds costs (worker versioning, `versioning: 'pinned'`): an in-process
 * worker serving one agent on a private `redis-server`, unpinned then pinned (build `b1`):
 *   - Redis clients it holds and idle commands per second (the pinned worker consumes the agent
 *     queue and its build queue);
 *   - wall time and Redis commands (`INFO commandstats`, scripts' inner calls included) per run for
 *     RUNS trivial root runs submitted at once (a pinned root run is moved once, agent queue →
 *     build queue, before it starts); the pinned/unpinned ratios are printed last.
 * Standalone: `node bench/worker-versioning.mjs` (VERSIONING_RUNS, default 500;
 * VERSIONING_WINDOW_MS, default 10000; needs `redis-server`).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createAgent } from '@flotilla/runtime';
import { createClient } from '@flotilla/runtime/client';
import { createWorker } from '@flotilla/runtime/worker';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { startPrivateRedis } from './private-redis.mjs';

const RUNS = Number(process.env.VERSIONING_RUNS ?? 500);
const WINDOW_MS = Number(process.env.VERSIONING_WINDOW_MS ?? 10_000);

async function commandCalls(redis) {
  let calls = 0;
  for (const line of (await redis.info('commandstats')).split('\n')) {
    const match = /^cmdstat_([^:]+):calls=(\d+)/.exec(line);
    if (match && !['info', 'client|list'].includes(match[1])) calls += Number(match[2]);
  }
  return calls;
}

async function clients(redis) {
  return Number(/connected_clients:(\d+)/.exec(await redis.info('clients'))?.[1] ?? 0) - 1;
}

const Echo = createAgent({ id: 'echo', handler: async ({ n }) => n });
const redisServer = await startPrivateRedis();
const admin = new Redis(redisServer.url);
const results = {};
try {
  for (const mode of ['unpinned', 'pinned']) {
    const prefix = `versioning-${mode}`;
    const worker = createWorker({
      agents: [Echo],
      connection: redisServer.url,
      prefix,
      concurrency: 8,
      buildId: 'b1',
      versioning: mode,
      logger: pino({ level: 'silent' }),
    });
    await worker.waitUntilReady();
    await sleep(1000);
    const redisClients = await clients(admin);
    const idleBefore = await commandCalls(admin);
    await sleep(WINDOW_MS);
    const idleCommandsPerSecond =
      Math.round((((await commandCalls(admin)) - idleBefore) / WINDOW_MS) * 10_000) / 10;
    const client = createClient({ connection: redisServer.url, prefix, logger: pino({ level: 'silent' }) });
    const before = await commandCalls(admin);
    const startedAt = performance.now();
    const runs = await Promise.all(Array.from({ length: RUNS }, (_, n) => client.submit('echo', { n })));
    await Promise.all(runs.map((run) => run.result()));
    const wallMs = Math.round(performance.now() - startedAt);
    const commandsPerRun = Math.round((((await commandCalls(admin)) - before) / RUNS) * 10) / 10;
    results[mode] = { wallMs, commandsPerRun };
    console.log(
      JSON.stringify({ mode, runs: RUNS, redisClients, idleCommandsPerSecond, wallMs, commandsPerRun }),
    );
    await client.close();
    await worker.close();
    await sleep(500);
  }
  console.log(
    JSON.stringify({
      pinnedOverUnpinned: {
        wallMs: Math.round((results.pinned.wallMs / results.unpinned.wallMs) * 100) / 100,
        commandsPerRun:
          Math.round((results.pinned.commandsPerRun / results.unpinned.commandsPerRun) * 100) / 100,
      },
    }),
  );
} finally {
  await admin.quit();
  await redisServer.stop();
}
