/**
 * Bytes a finished run keeps in Redis: N one-turn runs (the mock model) through a real worker,
 * then `MEMORY USAGE` of every key under the prefix (Flotilla's and BullMQ's, indexes
 * included), summed per kind of key. Keys whose count does not grow with N (BullMQ's queue
 * meta, id counter, capped event log) are reported apart as `queueKeys`; everything else is
 * divided by N. Standalone: `node bench/run-storage.mjs` (BENCH_STORAGE_RUNS, default 200).
 */
import { randomUUID } from 'node:crypto';
import { createAgent, promptChat } from '@flotilla/runtime';
import { createClient } from '@flotilla/runtime/client';
import { agentQueueName, bullmqPrefix } from '@flotilla/runtime/internals';
import { createMockModel } from '@flotilla/runtime/testing';
import { createWorker } from '@flotilla/runtime/worker';
import { pino } from 'pino';
import { BenchConnections } from './bench-connections.mjs';

const OneTurnAgent = createAgent({
  id: 'one-turn',
  model: 'storage-model',
  handler: async () => (await promptChat({ message: 'ping' })).data,
});

/** The kind of a key: its path under the prefix with ids replaced (`run:{r:*}:events`). */
function kindOf(prefix, key) {
  return key
    .slice(prefix.length + 1)
    .replace(/\{r:[^}]*\}/, '{r:*}')
    .replace(/^(agents|[^:]+):[0-9a-f-]{36}/, '$1:<job>');
}

/**
 * Runs `runs` one-turn runs to their end under a fresh prefix and measures what they keep.
 * @param {{ url: string, runs: number, concurrency?: number }} options
 */
export async function measureRunStorage({ url, runs, concurrency = 8 }) {
  const prefix = `flotilla-bench-storage:${randomUUID().slice(0, 8)}`;
  const model = createMockModel({ id: 'storage-model' }).setDefaultResponse('pong');
  const worker = createWorker({
    agents: [OneTurnAgent],
    models: { 'storage-model': model },
    connection: url,
    prefix,
    concurrency,
    logger: pino({ level: 'silent' }),
    env: {},
  });
  const client = createClient({ connection: url, prefix, env: {} });
  const connections = new BenchConnections(url);
  const redis = connections.connect();
  try {
    await worker.waitUntilReady();
    const handles = await Promise.all(
      Array.from({ length: runs }, (_, index) => client.submit(OneTurnAgent, { index })),
    );
    await Promise.all(handles.map((handle) => handle.result()));
    await jobsSettled(redis, prefix);
    return await measureKeys(redis, prefix, runs);
  } finally {
    await client.close();
    await worker.close();
    await connections.deleteKeys(`${prefix}:*`);
    await connections.close();
  }
}

/**
 * BullMQ removes (or keeps) an ended job right after the processor returns, a moment after the
 * run record ended: waits until no job is still active, for at most 5 s.
 */
async function jobsSettled(redis, prefix) {
  for (let waited = 0; waited < 5000; waited += 20) {
    const active = `${bullmqPrefix(prefix)}:${agentQueueName('agents', OneTurnAgent.id)}:active`;
    if ((await redis.llen(active)) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Every key under `prefix`, with its kind, bytes and TTL. */
export async function keysUnder(redis, prefix) {
  const keys = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== '0');
  const pipeline = redis.pipeline();
  for (const key of keys) {
    pipeline.memory('USAGE', key, 'SAMPLES', '0');
    pipeline.ttl(key);
  }
  const replies = (await pipeline.exec()) ?? [];
  return keys.map((key, index) => ({
    key,
    kind: kindOf(prefix, key),
    bytes: Number(replies[index * 2]?.[1] ?? 0),
    ttl: Number(replies[index * 2 + 1]?.[1] ?? -2),
  }));
}

async function measureKeys(redis, prefix, runs) {
  const kinds = new Map();
  const lingering = { keys: 0, bytes: 0 };
  for (const { kind, bytes, ttl } of await keysUnder(redis, prefix)) {
    // A compacted run's event stream stays ~10 s after its timeline is written (the reader
    // grace of compact-events-2): counted apart, not as what a finished run keeps.
    if (kind.endsWith(':events') && ttl >= 0 && ttl <= 10) {
      lingering.keys += 1;
      lingering.bytes += bytes;
      continue;
    }
    const entry = kinds.get(kind) ?? { keys: 0, bytes: 0, immortal: 0 };
    entry.keys += 1;
    entry.bytes += bytes;
    if (ttl === -1) entry.immortal += 1;
    kinds.set(kind, entry);
  }
  const perRun = {};
  const queueKeys = {};
  let runBytes = 0;
  let runKeys = 0;
  for (const [kind, entry] of [...kinds].sort(([a], [b]) => a.localeCompare(b))) {
    // A kind with about one key per run is per-run storage, and so are BullMQ's indexes of
    // finished jobs (they grow by one entry per run); the rest are the queue's own keys.
    if (entry.keys >= runs / 2 || /:(completed|failed)$/.test(kind)) {
      perRun[kind] = { bytes: Math.round(entry.bytes / runs), keys: entry.keys, immortal: entry.immortal };
      runBytes += entry.bytes;
      runKeys += entry.keys;
    } else {
      queueKeys[kind] = { keys: entry.keys, bytes: entry.bytes, immortal: entry.immortal };
    }
  }
  return {
    bytesPerRun: Math.round(runBytes / runs),
    keysPerRun: Number((runKeys / runs).toFixed(2)),
    perRun,
    queueKeys,
    lingeringEventStreams: {
      keys: lingering.keys,
      bytesPerRun: Math.round(lingering.bytes / runs),
      seconds: 10,
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { positiveInteger } = await import('./positive-integer.mjs');
  const url = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
  const runs = positiveInteger('BENCH_STORAGE_RUNS', 200);
  const result = await measureRunStorage({ url, runs });
  process.stdout.write(`${JSON.stringify({ bench: 'storage', runs, ...result })}\n`);
}
