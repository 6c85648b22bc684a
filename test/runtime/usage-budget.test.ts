/**
 * Usage budgets across a fleet: two workers, each serving one agent, so a child run always runs
 * on the other worker. Its usage reaches the parent's `getUsageStats().aggregate` (items and
 * costs) and `onUpdate` once, a parent that suspends and replays counts nothing twice, and the
 * tree's spend in Redis makes the parent's next call fail with `BudgetExceededError` before its
 * model is called, without a retry.
 */
import {
  BudgetExceededError,
  type BudgetState,
  createAgent,
  equipBudget,
  equipInstruction,
  equipTool,
  getUsageStats,
  InvalidBudgetError,
  promptAgent,
  recordToolUsage,
} from '@flotilla/runtime';
import { createClient, type FlotillaClient, type RunEvent } from '@flotilla/runtime/client';
import { runKeys } from '@flotilla/runtime/internals';
import { createMockModel, type MockUsage } from '@flotilla/runtime/testing';
import { createWorker, type FlotillaWorker } from '@flotilla/runtime/worker';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useRedis } from '../support/redis.js';

const redis = useRedis(import.meta.filename);
const answer = z.object({ ok: z.boolean() });
const prices = {
  'mock/parent-model': {
    inputMicroUsdPerMillionTokens: 1_000_000,
    outputMicroUsdPerMillionTokens: 2_000_000,
  },
  'child-model': { inputMicroUsdPerMillionTokens: 3_000_000, outputMicroUsdPerMillionTokens: 0 },
};

const parentModel = createMockModel({ id: 'parent-model' });
const childModel = createMockModel({ id: 'child-model' });
/** The `delta.totalTokens` of every `onUpdate` of the parent, across its executions. */
const parentUpdates: number[] = [];

/** Two model calls: one asks for the `note` tool, the next answers. */
const Researcher = createAgent({
  id: 'budget-researcher',
  model: 'child-model',
  handler: async ({ topic }: { topic: string }) => {
    equipInstruction(`Research ${topic} and answer as JSON with a boolean "ok".`);
    equipTool({
      name: 'note',
      description: 'Takes a note',
      parameters: z.object({}),
      handler: async () => 'noted',
    });
    return promptAgent(answer);
  },
});

/** The child model's script: a tool call, then the answer. */
function scriptChild(usage: MockUsage): void {
  childModel.reset();
  childModel.sequence([{ toolCalls: [{ name: 'note', arguments: {} }] }, { json: { ok: true } }]);
  childModel.setDefaultUsage(usage);
}

const Lead = createAgent({
  id: 'budget-lead',
  model: 'parent-model',
  handler: async () => {
    equipBudget({
      prices,
      maxTokens: 1_000_000, // under a limit, the spend is counted in Redis
      onUpdate: ({ delta }) => void parentUpdates.push(delta.totalTokens),
    });
    equipInstruction('Plan the research as JSON with a boolean "ok".');
    await promptAgent(answer);
    await Researcher({ topic: 'tides' }); // a child run on the other worker: this run suspends
    return getUsageStats();
  },
});

/** A tool that records paid usage, then a child run: the replay serves the tool from the journal. */
const Searcher = createAgent({
  id: 'budget-searcher',
  model: 'parent-model',
  handler: async () => {
    equipTool({
      name: 'search',
      description: 'Searches the web',
      parameters: z.object({}),
      handler: async () => {
        await recordToolUsage({ name: 'search', costs: { micro_usd: 700 }, quantity: 1, unit: 'requests' });
        return 'found';
      },
    });
    await promptAgent(answer);
    await Researcher({ topic: 'search results' });
    return getUsageStats();
  },
});

const Capped = createAgent({
  id: 'budget-capped',
  model: 'parent-model',
  retry: { attempts: 3 },
  handler: async () => {
    equipBudget({ maxTokens: 1_000 });
    await Researcher({ topic: 'budgets' });
    equipInstruction('Summarise the research as JSON with a boolean "ok".');
    return promptAgent(answer);
  },
});

let parentWorker: FlotillaWorker;
let childWorker: FlotillaWorker;
let client: FlotillaClient;

beforeAll(async () => {
  const common = { connection: redis.url, prefix: redis.prefix, logger: pino({ level: 'silent' }) };
  parentWorker = createWorker({
    ...common,
    agents: [Lead, Capped, Searcher],
    models: { 'parent-model': parentModel },
    // Children inherit it (in their job data) although their worker has none; equipBudget entries win.
    prices: {
      'child-model': { inputMicroUsdPerMillionTokens: 7_000_000, outputMicroUsdPerMillionTokens: 0 },
    },
  });
  childWorker = createWorker({ ...common, agents: [Researcher], models: { 'child-model': childModel } });
  await Promise.all([parentWorker.waitUntilReady(), childWorker.waitUntilReady()]);
  client = createClient({ connection: redis.url, prefix: redis.prefix });
});
afterAll(async () => {
  await client.close();
  await Promise.all([parentWorker.close(), childWorker.close()]);
});

describe('usage across workers', () => {
  it('refuses a bad worker price table at start', () => {
    const start = () =>
      createWorker({
        agents: [Lead],
        connection: redis.url,
        prefix: redis.prefix,
        prices: { 'child-model': { inputMicroUsdPerMillionTokens: 1.5, outputMicroUsdPerMillionTokens: 0 } },
      });
    expect(start).toThrow(InvalidBudgetError);
    expect(start).toThrow('createWorker: prices["child-model"].inputMicroUsdPerMillionTokens');
  });

  it('rolls a child run’s usage into the parent’s aggregate once, through a suspension and replay', async () => {
    parentModel.reset();
    parentModel.setDefaultResponse({ ok: true }).setDefaultUsage({ promptTokens: 100, completionTokens: 10 });
    scriptChild({ promptTokens: 200, completionTokens: 20, details: { reasoningTokens: 5 } });
    parentUpdates.length = 0;

    const run = await client.submit(Lead, {});
    const stats = (await run.result()) as BudgetState;

    const events: RunEvent[] = [];
    for await (const event of run.events()) events.push(event);
    expect(events.filter((event) => event.type === 'run-suspended')).toHaveLength(1);
    // The parent's first call was replayed after the suspension, not called or counted again.
    expect(parentModel.calls.count).toBe(1);
    expect(childModel.calls.count).toBe(2);
    expect(parentUpdates).toEqual([110, 440]);
    expect(events.filter((event) => event.type === 'budget-update')).toHaveLength(2);

    // 100 × $1/M + 10 × $2/M = 120 micro-USD; the child's table entry (by model id): 200 × $3/M = 600 a call.
    expect(stats.own).toMatchObject({
      promptTokens: 100,
      completionTokens: 10,
      totalTokens: 110,
      callCount: 1,
    });
    expect(stats.own.costs).toEqual({ micro_usd: 120 });
    expect(stats.aggregate).toMatchObject({ promptTokens: 500, totalTokens: 550, callCount: 3 });
    expect(stats.aggregate.costs).toEqual({ micro_usd: 1_320 });
    expect(stats.aggregate.details).toEqual({ reasoningTokens: 10 });
    expect(stats.aggregate.items).toEqual([
      expect.objectContaining({ key: 'model:mock:parent-model', callCount: 1, totalTokens: 110 }),
      expect.objectContaining({ key: 'model:mock:child-model', callCount: 2, totalTokens: 440 }),
    ]);

    // The spend under the lead's limit, in Redis, counts each live call once.
    const counters = await redis.redis.hgetall(runKeys(redis.prefix, run.id).usage);
    expect(Object.entries(counters).sort()).toEqual([
      [expect.stringMatching(/^c:[0-9a-f]{16}$/), '1320'],
      [expect.stringMatching(/^t:[0-9a-f]{16}$/), '550'],
    ]);
    // The child's stored stats were dropped once the parent journaled them.
    const fields = await redis.redis.hkeys(runKeys(redis.prefix, run.id).usage);
    expect(fields.filter((field) => field.startsWith('stats:'))).toEqual([]);
  });

  it('rebuilds usage recorded inside a tool when the replay serves the tool from the journal', async () => {
    parentModel.reset();
    parentModel.sequence([{ toolCalls: [{ name: 'search', arguments: {} }] }, { json: { ok: true } }]);
    scriptChild({ promptTokens: 10 });

    const run = await client.submit(Searcher, {});
    const stats = (await run.result()) as BudgetState;

    expect(parentModel.calls.count).toBe(2);
    expect(stats.own.costs).toEqual({ micro_usd: 700 });
    expect(stats.own.items).toEqual([
      expect.objectContaining({ key: 'model:mock:parent-model', callCount: 2 }),
      expect.objectContaining({ key: 'tool:search:requests:', callCount: 1, quantity: 1 }),
    ]);
    // The child's two calls at 10 prompt tokens, priced by the parent worker's table (10 × $7/M).
    expect(stats.aggregate.totalTokens).toBe(20);
    expect(stats.aggregate.costs).toEqual({ micro_usd: 700 + 2 * 70 });
    // No limit here: nothing was counted in Redis.
    expect(await redis.redis.exists(runKeys(redis.prefix, run.id).usage)).toBe(0);
  });

  it('refuses the parent’s next call once the child (on the other worker) spent the tree’s budget', async () => {
    parentModel.reset();
    parentModel.setDefaultResponse({ ok: true });
    scriptChild({ promptTokens: 450, completionTokens: 50 });

    const run = await client.submit(Capped, {});
    const error = await run.result().catch((caught: unknown) => caught);

    expect(BudgetExceededError.is(error)).toBe(true);
    expect(error).toMatchObject({
      kind: 'tokens',
      limit: 1_000,
      spent: 1_000,
      setBy: 'root/agent:budget-capped:0',
      rootRunId: run.id,
    });
    // The child's two calls were made (the limit travelled to it); the parent's model never was.
    expect(childModel.calls.count).toBe(2);
    expect(parentModel.calls.count).toBe(0);
    // Final: the agent's retry policy does not run it again.
    expect(await client.getRun(run.id)).toMatchObject({ status: 'failed', attempts: 1 });
  });
});
