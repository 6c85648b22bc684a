/**
 * What routing by agent costs per extra agent a worker serves (one BullMQ queue per agent): an
 * in-process worker on a private `redis-server` serving 1, 5 and 20 agents, idle (no run):
 *   - Redis clients it holds (`INFO clients`, minus the bench's own connection);
 *   - commands per second while idle (`INFO commandstats` deltas over a window), which are the
 *     blocking fetches (BZPOPMIN, timing out every ~5 s per queue), the stalled-job checks (one
 *     script per queue every `stalledIntervalMs`) and the registry heartbeat (one script per second).
 * Standalone: `node bench/agent-queues.mjs` (QUEUES_WINDOW_MS, default 20000; needs `redis-server`).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createAgent } from '@flotilla/runtime';
import { createWorker } from '@flotilla/runtime/worker';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { startPrivateRedis } from './private-redis.mjs';

const WINDOW_MS = Number(process.env.QUEUES_WINDOW_MS ?? 20_000);
const AGENT_COUNTS = [1, 5, 20];

async function commandCalls(redis) {
  const calls = {};
  for (const line of (await redis.info('commandstats')).split('\n')) {
    const match = /^cmdstat_([^:]+):calls=(\d+)/.exec(line);
    if (match && !['info', 'client|list'].includes(match[1])) calls[match[1]] = Number(match[2]);
  }
  return calls;
}

const total = (calls) => Object.values(calls).reduce((sum, count) => sum + count, 0);

async function clients(redis) {
  return Number(/connected_clients:(\d+)/.exec(await redis.info('clients'))?.[1] ?? 0) - 1;
}

const redisServer = await startPrivateRedis();
const admin = new Redis(redisServer.url);
try {
  for (const count of AGENT_COUNTS) {
    const agents = Array.from({ length: count }, (_, index) =>
      createAgent({ id: `agent-${index}`, handler: async () => index }),
    );
    const worker = createWorker({
      agents,
      connection: redisServer.url,
      prefix: `queues-${count}`,
      logger: pino({ level: 'silent' }),
    });
    await worker.waitUntilReady();
    await sleep(1000);
    const connected = await clients(admin);
    const before = await commandCalls(admin);
    await sleep(WINDOW_MS);
    const after = await commandCalls(admin);
    const byCommand = {};
    for (const [name, calls] of Object.entries(after)) {
      const diff = calls - (before[name] ?? 0);
      if (diff > 0) byCommand[name] = Math.round((diff / WINDOW_MS) * 10_000) / 10;
    }
    const perSecond = Math.round(((total(after) - total(before)) / WINDOW_MS) * 10_000) / 10;
    console.log(
      JSON.stringify({ agents: count, redisClients: connected, idleCommandsPerSecond: perSecond, byCommand }),
    );
    await worker.close();
    await sleep(500);
  }
} finally {
  await admin.quit();
  await redisServer.stop();
}
