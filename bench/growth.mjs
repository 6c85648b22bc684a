/**
 * Growth bench (issue 15), on a private `redis-server` (REDIS_URL overrides it):
 *   1. bytes written per turn at turn 2 and turn 200 of one conversation (a one-turn chat agent
 *      submitted on one `conversationId`): Redis' `total_net_input_bytes` around each run, so
 *      every command of worker and client counts;
 *   2. loading a 1,000-message conversation (`getConversation`) against a raw `GET` + `JSON.parse`
 *      of the same messages stored as one JSON string: BENCH_LOADS of each, alternated (a busy
 *      machine then slows both alike); medians of wall time and of this process' CPU time, and
 *      their ratios (the figure is `ratio`, wall);
 *   3. 1,000 suspended parents (each awaits a child of an agent no worker serves): the worker
 *      slots they hold (BullMQ active jobs) and this process's RSS before and after.
 * Prints JSON lines. Not a test: nothing here asserts a timing. `node bench/growth.mjs`.
 *
 * Env: BENCH_TURNS (default 200), BENCH_MESSAGES (default 1000), BENCH_LOADS (default 200),
 * BENCH_PARENTS (default 1000), BENCH_GROWTH_FIGURES (comma-separated subset of `bytes`, `load`,
 * `parents`; default all).
 */
import { randomUUID } from 'node:crypto';
import { createAgent, promptChat } from '@flotilla/runtime';
import { createClient } from '@flotilla/runtime/client';
import { agentQueueName, bullmqPrefix, RedisConversationStore } from '@flotilla/runtime/internals';
import { createMockModel } from '@flotilla/runtime/testing';
import { connectRedis, createWorker } from '@flotilla/runtime/worker';
import { Queue } from 'bullmq';
import { pino } from 'pino';
import { positiveInteger } from './positive-integer.mjs';
import { startPrivateRedis } from './private-redis.mjs';

const turns = positiveInteger('BENCH_TURNS', 200);
const messageCount = positiveInteger('BENCH_MESSAGES', 1000);
const loads = positiveInteger('BENCH_LOADS', 200);
const parents = positiveInteger('BENCH_PARENTS', 1000);
const figures = new Set((process.env.BENCH_GROWTH_FIGURES || 'bytes,load,parents').split(','));
const prefix = `flotilla-bench-growth:${randomUUID().slice(0, 8)}`;

const model = createMockModel({ id: 'growth-model', record: false }).setDefaultResponse(
  'A short answer of about the size a chat turn has, a sentence or two long.',
);
const Chat = createAgent({
  id: 'growth-chat',
  model: 'growth-model',
  handler: async ({ message }) => (await promptChat({ message })).data,
});
const Unserved = createAgent({ id: 'growth-unserved', handler: async () => 'never' });
const Parent = createAgent({ id: 'growth-parent', handler: async () => Unserved({}) });

const mb = (bytes) => Number((bytes / 1_048_576).toFixed(1));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function netInputBytes(redis) {
  const info = await redis.info('stats');
  return Number(/total_net_input_bytes:(\d+)/.exec(info)?.[1] ?? Number.NaN);
}

/** 1. Bytes per turn at turn 2 and turn `turns`. */
async function bytesPerTurn(client, redis) {
  // Warm-up on another conversation: the first calls of each connection send whole Lua scripts.
  const warmUp = `warm-${randomUUID().slice(0, 8)}`;
  for (let turn = 1; turn <= 2; turn++)
    await (await client.submit('growth-chat', { message: 'warm-up' }, { conversationId: warmUp })).result();
  const conversationId = `growth-${randomUUID().slice(0, 8)}`;
  const report = {};
  for (let turn = 1; turn <= turns; turn++) {
    const before = await netInputBytes(redis);
    const run = await client.submit(
      'growth-chat',
      { message: `Question number ${turn}, a line of text.` },
      { conversationId },
    );
    await run.result();
    const bytes = (await netInputBytes(redis)) - before;
    if (turn === 2 || turn === turns) report[`turn${turn}Bytes`] = bytes;
  }
  console.log(JSON.stringify({ bench: 'growth', figure: 'bytes-written-per-turn', ...report }));
}

/** 2. Loading a long conversation against GET + JSON.parse of the same messages. */
async function loadLongConversation(client, redis) {
  const store = new RedisConversationStore({ redis, prefix });
  const conversationId = `long-${randomUUID().slice(0, 8)}`;
  const messages = [];
  for (let version = 0; messages.length < messageCount; version++) {
    const pair = [
      { role: 'user', content: `Question ${messages.length}: what is the status of item ${version}?` },
      {
        role: 'assistant',
        content: `Item ${version} is done; a sentence or two of answer text follows here.`,
      },
    ];
    await store.append(conversationId, { expectedVersion: version, appendId: `a${version}`, messages: pair });
    messages.push(...pair);
  }
  const rawKey = `${prefix}:raw-conversation`;
  await redis.set(rawKey, JSON.stringify(messages));
  const load = async () => {
    const loaded = await client.getConversation(conversationId);
    if (loaded?.messages.length !== messages.length) throw new Error('the conversation did not load whole');
  };
  const raw = async () => JSON.parse(await redis.get(rawKey));
  // Warm-up first: the first calls run cold (JIT, connection buffers).
  for (let index = 0; index < 20; index++) {
    await load();
    await raw();
  }
  const samples = { load: { wall: [], cpu: [] }, raw: { wall: [], cpu: [] } };
  const sample = async (name, operation) => {
    const cpu = process.cpuUsage();
    const started = performance.now();
    await operation();
    samples[name].wall.push(performance.now() - started);
    const used = process.cpuUsage(cpu);
    samples[name].cpu.push((used.user + used.system) / 1000);
  };
  // Alternated, each first half of the time.
  for (let index = 0; index < loads; index++) {
    if (index % 2 === 0) {
      await sample('load', load);
      await sample('raw', raw);
    } else {
      await sample('raw', raw);
      await sample('load', load);
    }
  }
  const [loadMs, rawMs] = [median(samples.load.wall), median(samples.raw.wall)];
  const [loadCpuMs, rawCpuMs] = [median(samples.load.cpu), median(samples.raw.cpu)];
  console.log(
    JSON.stringify({
      bench: 'growth',
      figure: 'load-conversation',
      messages: messages.length,
      loadMs: Number(loadMs.toFixed(2)),
      rawGetParseMs: Number(rawMs.toFixed(2)),
      ratio: Number((loadMs / rawMs).toFixed(2)),
      loadCpuMs: Number(loadCpuMs.toFixed(2)),
      rawCpuMs: Number(rawCpuMs.toFixed(2)),
      cpuRatio: Number((loadCpuMs / rawCpuMs).toFixed(2)),
    }),
  );
}

/** 3. Suspended parents: worker slots held and RSS. */
async function suspendedParents(client, url) {
  const connection = connectRedis(url, { maxRetriesPerRequest: null });
  const queue = new Queue(agentQueueName('agents', 'growth-parent'), {
    connection,
    prefix: bullmqPrefix(prefix),
  });
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  // In batches: a thousand submits at once can outlast the client's request timeout on a busy machine.
  for (let submitted = 0; submitted < parents; submitted += 50)
    await Promise.all(
      Array.from({ length: Math.min(50, parents - submitted) }, () => client.submit('growth-parent', {})),
    );
  const deadline = Date.now() + 600_000;
  let counts;
  for (;;) {
    counts = await queue.getJobCounts('active', 'waiting-children', 'wait');
    if (counts['waiting-children'] >= parents || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  global.gc?.();
  const rssAfter = process.memoryUsage().rss;
  console.log(
    JSON.stringify({
      bench: 'growth',
      figure: 'suspended-parents',
      parents,
      suspended: counts['waiting-children'],
      slotsHeld: counts.active,
      rssBeforeMb: mb(rssBefore),
      rssAfterMb: mb(rssAfter),
    }),
  );
  await queue.close();
  connection.disconnect();
}

const privateRedis = process.env.REDIS_URL ? undefined : await startPrivateRedis();
const url = process.env.REDIS_URL || privateRedis.url;
const redis = connectRedis(url, { maxRetriesPerRequest: null });
const worker = createWorker({
  agents: [Chat, Parent],
  models: { 'growth-model': model },
  connection: url,
  prefix,
  concurrency: 10,
  logger: pino({ level: 'silent' }),
  env: {},
});
const client = createClient({ connection: url, prefix, env: {} });
try {
  await worker.waitUntilReady();
  if (figures.has('bytes')) await bytesPerTurn(client, redis);
  if (figures.has('load')) await loadLongConversation(client, redis);
  if (figures.has('parents')) await suspendedParents(client, url);
} finally {
  await client.close();
  await worker.close();
  redis.disconnect();
  await privateRedis?.stop();
}
