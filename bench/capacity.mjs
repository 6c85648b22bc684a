/**
 * Redis memory for the capacity model of `docs/performance.md`, on a private `redis-server`:
 *   - a conversational run (2 model turns + a tool, its own conversation) once ended: bytes
 *     and keys it keeps, by kind of key (run keys, conversation keys, BullMQ's);
 *   - a suspended 1→10 tree: a root waiting on ten children that no worker serves yet (they
 *     stay queued), so what a tree holds while it waits.
 * `MEMORY USAGE` of every key, divided by the number of runs or trees. Standalone:
 * `node bench/capacity.mjs` (CAPACITY_RUNS, default 200; CAPACITY_TREES, default 50).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createClient } from '@flotilla/runtime/client';
import { createWorker } from '@flotilla/runtime/worker';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { benchModel, flotillaAgents, flotillaSubmission } from './cost-shapes.mjs';
import { positiveInteger } from './positive-integer.mjs';
import { startPrivateRedis } from './private-redis.mjs';
import { keysUnder } from './run-storage.mjs';

const runs = positiveInteger('CAPACITY_RUNS', 200);
const trees = positiveInteger('CAPACITY_TREES', 50);

/** Bytes and keys per unit, by kind of key (kinds with fewer keys than units are the queue's own). */
async function perUnit(redis, prefix, units) {
  const kinds = {};
  let bytes = 0;
  let keys = 0;
  for (const key of await keysUnder(redis, prefix)) {
    const kind = key.kind
      .replace(/\{c:[^}]*\}/, '{c:*}')
      .replace(
        /^(\{q\}:[^:]+):(?!(?:wait|active|meta|events|id|marker|delayed|prioritized|completed|failed|stalled|stalled-check|pc|paused|waiting-children)$)[^:]+/,
        '$1:<job>',
      )
      .replace(/^(runs:\{x:~\}:root):.*/, '$1:<root>');
    kinds[kind] ??= { keys: 0, bytes: 0 };
    kinds[kind].keys += 1;
    kinds[kind].bytes += key.bytes;
  }
  const perKind = {};
  for (const [kind, entry] of Object.entries(kinds)) {
    if (entry.keys < units / 2) continue;
    perKind[kind] = { bytes: Math.round(entry.bytes / units), keys: Number((entry.keys / units).toFixed(2)) };
    bytes += entry.bytes;
    keys += entry.keys;
  }
  return { bytesPer: Math.round(bytes / units), keysPer: Number((keys / units).toFixed(2)), perKind };
}

async function waitUntil(check, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(50);
  }
}

const server = await startPrivateRedis();
const redis = new Redis(server.url);
try {
  {
    const prefix = 'capacity-conversation';
    const worker = createWorker({
      agents: flotillaAgents.conversation,
      models: { 'bench-model': benchModel() },
      connection: server.url,
      prefix,
      logger: pino({ level: 'silent' }),
      env: {},
    });
    const client = createClient({ connection: server.url, prefix, env: {} });
    await worker.waitUntilReady();
    for (let started = 0; started < runs; started += 20) {
      const batch = Array.from({ length: Math.min(20, runs - started) }, () => {
        const { agent, input, options } = flotillaSubmission('conversation');
        return client.submit(agent, input, options).then((handle) => handle.result());
      });
      await Promise.all(batch);
    }
    await client.close();
    await worker.close();
    console.log(
      JSON.stringify({
        bench: 'capacity',
        what: 'ended conversational run',
        runs,
        ...(await perUnit(redis, prefix, runs)),
      }),
    );
  }
  {
    const prefix = 'capacity-tree';
    // Only the root is served: its ten children stay queued, the root waits for them.
    const worker = createWorker({
      agents: flotillaAgents.fanout.filter((agent) => agent.id === 'bench-root'),
      connection: server.url,
      prefix,
      logger: pino({ level: 'silent' }),
      env: {},
    });
    const client = createClient({ connection: server.url, prefix, env: {} });
    await worker.waitUntilReady();
    const handles = await Promise.all(Array.from({ length: trees }, () => client.submit('bench-root', {})));
    await waitUntil(
      async () =>
        (await Promise.all(handles.map((handle) => client.getRun(handle.id)))).every(
          (r) => r?.status === 'waiting',
        ),
      60_000,
      'every root suspended',
    );
    await worker.close();
    await client.close();
    console.log(
      JSON.stringify({
        bench: 'capacity',
        what: 'suspended 1→10 tree',
        trees,
        ...(await perUnit(redis, prefix, trees)),
      }),
    );
  }
} finally {
  await redis.quit();
  await server.stop();
}
