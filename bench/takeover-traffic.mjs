/**
 * What fast takeover costs in Redis traffic: an in-process worker on a private `redis-server`,
 * commands counted from `INFO commandstats` deltas over a window, with the lock settings of
 * before issue 10 (30 s lock, 30 s stalled checks) and the current defaults (5 s, 2.5 s):
 *   - an idle worker (no run): its commands per second;
 *   - the same worker with N runs executing (each awaits a gate, writing nothing meanwhile):
 *     the extra commands per active run per second (lock renewals are batched per worker).
 * Also the commands one one-turn run costs end to end (the attempt fence adds an HGET inside
 * scripts that run anyway, no command). Standalone: `node bench/takeover-traffic.mjs`
 * (TRAFFIC_WINDOW_MS, default 20000; TRAFFIC_RUNS, default 20; needs `redis-server` on PATH).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createAgent, promptChat } from '@flotilla/runtime';
import { createClient } from '@flotilla/runtime/client';
import { createMockModel } from '@flotilla/runtime/testing';
import { createWorker } from '@flotilla/runtime/worker';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { startPrivateRedis } from './private-redis.mjs';

const WINDOW_MS = Number(process.env.TRAFFIC_WINDOW_MS ?? 20_000);
const RUNS = Number(process.env.TRAFFIC_RUNS ?? 20);
const SETTINGS = {
  'before (30000 / 30000)': { lockDurationMs: 30_000, stalledIntervalMs: 30_000 },
  'defaults (5000 / 2500)': {},
};

/** Calls per command since the server started, `info` itself left out. */
async function commandCalls(redis) {
  const calls = {};
  for (const line of (await redis.info('commandstats')).split('\n')) {
    const match = /^cmdstat_([^:]+):calls=(\d+)/.exec(line);
    if (match && match[1] !== 'info') calls[match[1]] = Number(match[2]);
  }
  return calls;
}

function delta(after, before) {
  const result = {};
  for (const [name, calls] of Object.entries(after)) {
    const diff = calls - (before[name] ?? 0);
    if (diff > 0) result[name] = diff;
  }
  return result;
}

const total = (calls) => Object.values(calls).reduce((sum, count) => sum + count, 0);

async function countOver(redis, ms) {
  const before = await commandCalls(redis);
  await sleep(ms);
  return delta(await commandCalls(redis), before);
}

async function measure(url, name, settings) {
  const prefix = `traffic-${Object.keys(SETTINGS).indexOf(name)}`;
  let open;
  const gate = new Promise((resolve) => {
    open = resolve;
  });
  const Waiting = createAgent({ id: 'waiting', handler: async () => gate });
  const OneTurn = createAgent({
    id: 'one-turn',
    model: 'mock',
    handler: async () => (await promptChat({ message: 'ping' })).data,
  });
  const worker = createWorker({
    agents: [Waiting, OneTurn],
    models: { mock: createMockModel({ id: 'mock' }).setDefaultResponse('pong') },
    connection: url,
    prefix,
    concurrency: RUNS,
    logger: pino({ level: 'silent' }),
    env: {},
    ...settings,
  });
  const client = createClient({ connection: url, prefix, env: {} });
  const redis = new Redis(url);
  try {
    await worker.waitUntilReady();
    await sleep(1000);
    const idle = await countOver(redis, WINDOW_MS);
    const handles = await Promise.all(Array.from({ length: RUNS }, () => client.submit(Waiting, {})));
    while ((await redis.hget(`${prefix}:run:{r:${handles.at(-1).id}}:record`, 'status')) !== 'running')
      await sleep(50);
    await sleep(1000);
    const active = await countOver(redis, WINDOW_MS);
    open('ok');
    await Promise.all(handles.map((handle) => handle.result()));
    const beforeRun = await commandCalls(redis);
    const one = await client.submit(OneTurn, {});
    await one.result();
    await sleep(200);
    const perRun = delta(await commandCalls(redis), beforeRun);
    const seconds = WINDOW_MS / 1000;
    return {
      settings: name,
      idleWorkerCommandsPerSecond: +(total(idle) / seconds).toFixed(2),
      idleBreakdown: idle,
      extraCommandsPerActiveRunPerSecond: +((total(active) - total(idle)) / seconds / RUNS).toFixed(3),
      activeBreakdown: active,
      commandsPerOneTurnRun: total(perRun),
      oneTurnRunBreakdown: perRun,
    };
  } finally {
    await client.close();
    await worker.close();
    redis.disconnect();
  }
}

const server = await startPrivateRedis();
try {
  for (const [name, settings] of Object.entries(SETTINGS)) {
    console.log(JSON.stringify(await measure(server.url, name, settings), null, 2));
  }
} finally {
  await server.stop();
}
