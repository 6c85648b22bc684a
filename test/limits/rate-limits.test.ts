/**
 * Fleet-wide rate limits: several workers share one provider/model budget (a Redis GCRA script),
 * calling a local OpenAI-compatible provider through the real `openai` SDK adapter. The provider
 * counts the requests of every second and answers 429 beyond its limit. Count-based: no timing
 * threshold decides a verdict.
 */
import { createOpenAIAdapter } from '@flotilla/adapters/openai';
import { createAgent, InvalidModelLimitsError, promptChat } from '@flotilla/runtime';
import { createClient, type FlotillaClient } from '@flotilla/runtime/client';
import { createWorker, type FlotillaWorker } from '@flotilla/runtime/worker';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error a plain ESM helper shared with bench/rate-limits.mjs
import { startFakeOpenAIProvider } from '../../bench/fake-openai-provider.mjs';
import { useRedis } from '../support/redis.js';
import { waitUntil } from '../support/wait-until.js';

const redis = useRedis(import.meta.filename);

interface FakeProvider {
  baseURL: string;
  stats: { requests: number; ok: number; rateLimited: number };
  peakPerSecond(): number;
  close(): Promise<void>;
}

const Asker = createAgent({
  id: 'asker',
  model: 'limited',
  handler: async ({ n }: { n: number }) => (await promptChat({ message: `question ${n}` })).data,
});

let provider: FakeProvider;
const workers: FlotillaWorker[] = [];
const clients: FlotillaClient[] = [];

async function startFleet(prefix: string, limits: { rpm: number } | undefined, workerCount: number) {
  for (let i = 0; i < workerCount; i++) {
    const model = createOpenAIAdapter({
      model: 'fake-model',
      provider: 'fake',
      apiKey: 'test',
      baseURL: provider.baseURL,
      maxRetries: 0,
      ...(limits && { limits }),
    });
    const worker = createWorker({
      agents: [Asker],
      models: { limited: model },
      connection: redis.url,
      prefix,
      concurrency: 8,
      logger: pino({ level: 'silent' }),
    });
    workers.push(worker);
    await worker.waitUntilReady();
  }
  const client = createClient({ connection: redis.url, prefix });
  clients.push(client);
  return client;
}

beforeAll(async () => {
  // 10 requests per wall-clock second at the provider.
  provider = await startFakeOpenAIProvider({ perSecond: 10 });
});

afterAll(async () => {
  for (const client of clients) await client.close();
  for (const worker of workers) await worker.close();
  await provider?.close();
});

describe('when the fleet-wide limit is set under the provider limit', () => {
  it('runs every run without a failure and without a single 429', async () => {
    const before = { ...provider.stats };
    // 8 per second (spaced 125 ms apart) across 3 workers, under the provider's 10.
    const client = await startFleet(`${redis.prefix}-limited`, { rpm: 480 }, 3);
    const runs = await Promise.all(Array.from({ length: 24 }, (_, n) => client.submit('asker', { n })));
    const records = await Promise.all(
      runs.map(async (run) => {
        await run.result().catch(() => undefined);
        return client.getRun(run.id);
      }),
    );
    expect(records.map((record) => record?.status)).toEqual(records.map(() => 'succeeded'));
    expect(provider.stats.requests - before.requests).toBe(24);
    expect(provider.stats.rateLimited - before.rateLimited).toBe(0);
    expect(provider.peakPerSecond()).toBeLessThanOrEqual(10);
  });

  it('shows the wait as a rate-limit-wait event', async () => {
    const client = clients[0]!;
    const runs = await Promise.all(Array.from({ length: 12 }, (_, n) => client.submit('asker', { n })));
    await Promise.all(runs.map((run) => run.result()));
    const waits: unknown[] = [];
    for (const run of runs)
      for await (const event of run.events()) if (event.type === 'rate-limit-wait') waits.push(event);
    expect(waits.length).toBeGreaterThan(0);
    expect(waits[0]).toMatchObject({ provider: 'fake', modelId: 'fake-model', reason: expect.any(String) });
  });
});

describe('when a 429 comes back', () => {
  it('pauses the budget for the fleet and the run still succeeds (waiting, not failing)', async () => {
    // No rpm spacing worth the name: the provider's 429s drive the waits.
    const client = await startFleet(`${redis.prefix}-bursty`, { rpm: 1_000_000 }, 2);
    const before = { ...provider.stats };
    const runs = await Promise.all(Array.from({ length: 30 }, (_, n) => client.submit('asker', { n })));
    const statuses = await Promise.all(
      runs.map(async (run) => {
        await run.result().catch(() => undefined);
        return (await client.getRun(run.id))?.status;
      }),
    );
    expect(statuses).toEqual(statuses.map(() => 'succeeded'));
    expect(provider.stats.rateLimited - before.rateLimited).toBeGreaterThan(0);
    expect(provider.stats.ok - before.ok).toBe(30);
  });
});

describe('when the budget is further away than a short wait', () => {
  it('parks the run without its slot (waiting, waitingFor rate-limit) and runs it when its time comes', async () => {
    const prefix = `${redis.prefix}-parked`;
    // 6 per minute: the second call's time is 10 s away, past the 5 s a call waits in its slot.
    const model = createOpenAIAdapter({
      model: 'slow-model',
      provider: 'fake',
      apiKey: 'test',
      baseURL: provider.baseURL,
      limits: { rpm: 6 },
    });
    const worker = createWorker({
      agents: [Asker],
      models: { limited: model },
      connection: redis.url,
      prefix,
      logger: pino({ level: 'silent' }),
    });
    workers.push(worker);
    await worker.waitUntilReady();
    const client = createClient({ connection: redis.url, prefix });
    clients.push(client);
    const first = await client.submit('asker', { n: 1 });
    await first.result();
    const second = await client.submit('asker', { n: 2 });
    const parked = await waitUntil(
      async () => {
        const record = await client.getRun(second.id);
        return record?.waitingFor?.kind === 'rate-limit' && record.status === 'waiting' ? record : undefined;
      },
      { what: 'the second run parked for the rate limit' },
    );
    expect(parked.waitingFor?.detail).toMatch(/^fake\/slow-model/);
    await expect(second.result()).resolves.toBeDefined();
    expect((await client.getRun(second.id))?.status).toBe('succeeded');
  });
});

describe('invalid limits', () => {
  it('fail at adapter creation with InvalidModelLimitsError naming the field', () => {
    const create = () =>
      createOpenAIAdapter({ model: 'm', apiKey: 'k', baseURL: provider.baseURL, limits: { rpm: -1 } });
    expect(create).toThrow(InvalidModelLimitsError);
    expect(create).toThrow(/rpm/);
  });
});
