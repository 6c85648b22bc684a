/**
 * What a Redis crash costs in repeated work, per persistence setting: an in-process worker runs
 * RUNS multi-step runs (a model turn per step plus one, a short tool per step) on a private
 * `redis-server`; while they execute, the server is SIGKILLed and started again from its
 * append-only file. Writes Redis acknowledged but had not yet fsynced are lost (`everysec`: up
 * to about a second); a run whose journal lost entries replays them, calling the model again.
 * (`everysec` loses nothing when only the process dies — the kernel keeps what was written —
 * so a machine crash is simulated too: the AOF is cut back to its size a second before.)
 * The mock model counts the calls for every (run, turn): every call past the first is repeated
 * work. Also checks that every `result()` settles on the run's real end (issue 10 part 4).
 * Standalone: `node bench/redis-crash-repeats.mjs` (CRASH_RUNS, default 40; CRASH_AFTER_MS,
 * default 1500; needs `redis-server` on PATH).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createAgent, defineTool, equipTool, promptChat } from '@flotilla/runtime';
import { createClient } from '@flotilla/runtime/client';
import { createMockModel } from '@flotilla/runtime/testing';
import { createWorker } from '@flotilla/runtime/worker';
import { pino } from 'pino';
import { z } from 'zod';
import { startPrivateRedis } from './private-redis.mjs';

const RUNS = Number(process.env.CRASH_RUNS ?? 40);
const STEPS = 6;
const STEP_MS = 100;
const CRASH_AFTER_MS = Number(process.env.CRASH_AFTER_MS ?? 1500);

/** Model calls per `<run tag>#<turn>`. */
function countingModel(calls) {
  const model = createMockModel({ id: 'crash-model' });
  model
    .when(() => true)
    .thenDo((request) => {
      const user = request.messages.find((message) => message.role === 'user');
      const done = request.messages.filter((message) => message.role === 'tool').length;
      const key = `${user?.content}#${done}`;
      calls.set(key, (calls.get(key) ?? 0) + 1);
      if (done >= STEPS) return `done after ${done} steps`;
      return {
        message: {
          role: 'assistant',
          content: '',
          tool_calls: [
            { id: `call-${done + 1}`, type: 'function', function: { name: 'step', arguments: '{}' } },
          ],
        },
        usage: { promptTokens: 10, completionTokens: 2, totalTokens: 12 },
        finishReason: { unified: 'tool_calls' },
      };
    });
  return model;
}

const step = defineTool({
  name: 'step',
  description: 'One step of the job.',
  parameters: z.object({}),
  handler: async () => {
    await sleep(STEP_MS);
    return 'ok';
  },
});

const Stepper = createAgent({
  id: 'crash-stepper',
  model: 'crash-model',
  handler: async ({ tag }) => {
    equipTool(step);
    return (await promptChat({ message: `job ${tag}` })).data;
  },
});

async function measure({ appendfsync, loseLastMs = 0 }) {
  const server = await startPrivateRedis({ appendfsync });
  const calls = new Map();
  const prefix = 'crash';
  const worker = createWorker({
    agents: [Stepper],
    models: { 'crash-model': countingModel(calls) },
    connection: server.url,
    prefix,
    concurrency: RUNS,
    logger: pino({ level: 'silent' }),
    env: {},
  });
  const client = createClient({ connection: server.url, prefix, env: {}, requestTimeoutMs: 120_000 });
  try {
    await worker.waitUntilReady();
    const handles = await Promise.all(
      Array.from({ length: RUNS }, (_, index) => client.submit(Stepper, { tag: `${index}` })),
    );
    const results = Promise.allSettled(handles.map((handle) => handle.result()));
    await sleep(CRASH_AFTER_MS);
    const crashedAt = Date.now();
    const { lostBytes } = await server.crash({ loseLastMs });
    const settled = await results;
    const repeated = [...calls.values()].reduce((sum, count) => sum + count - 1, 0);
    const records = await Promise.all(handles.map((handle) => client.getRun(handle.id)));
    return {
      persistence: appendfsync ? `appendonly yes, appendfsync ${appendfsync}` : 'none (appendonly no)',
      crash:
        loseLastMs > 0
          ? `machine crash: last ${loseLastMs} ms of the AOF lost (${lostBytes} bytes)`
          : 'redis-server SIGKILLed',
      runs: RUNS,
      modelCalls: [...calls.values()].reduce((sum, count) => sum + count, 0),
      expectedModelCalls: RUNS * (STEPS + 1),
      repeatedModelCalls: repeated,
      resultsSucceeded: settled.filter((result) => result.status === 'fulfilled').length,
      resultErrors: [
        ...new Set(
          settled
            .filter((r) => r.status === 'rejected')
            .map((r) => `${r.reason?.name}: ${r.reason?.message}`),
        ),
      ].slice(0, 3),
      recordsSucceeded: records.filter((record) => record?.status === 'succeeded').length,
      recordsMissing: records.filter((record) => record === undefined).length,
      secondsFromCrashToAllSettled: +((Date.now() - crashedAt) / 1000).toFixed(1),
    };
  } finally {
    await client.close();
    await worker.close();
    await server.stop();
  }
}

const cases = [
  { appendfsync: 'always' },
  { appendfsync: 'everysec' },
  // What everysec may lose when the machine (not just the process) goes down.
  { appendfsync: 'everysec', loseLastMs: 1000 },
  {},
];
for (const setting of cases) console.log(JSON.stringify(await measure(setting)));
