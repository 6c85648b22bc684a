/**
 * Concurrency caps (`createAgent({ concurrency: { limit, key? } })`) across workers: never more
 * runs of one key execute at once than the limit (a Redis counter of the runs inside the handler
 * records the peak), runs over the cap wait at the gate (`waitingFor: concurrency`) without
 * holding a slot, and a released place wakes the next. Count-based, no timing threshold.
 */
import { randomUUID } from 'node:crypto';
import { createAgent } from '@flotilla/runtime';
import { createClient, type FlotillaClient } from '@flotilla/runtime/client';
import { createWorker, type FlotillaWorker } from '@flotilla/runtime/worker';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useRedis } from '../support/redis.js';
import { waitUntil } from '../support/wait-until.js';

const redis = useRedis(import.meta.filename);
const prefix = `${redis.prefix}-caps`;
let counters: Redis;

/** Counts the runs inside its handler per key and keeps the peak; waits for its release key. */
function cappedAgent(id: string, concurrency: object) {
  return createAgent({
    id,
    concurrency: concurrency as { limit: number },
    handler: async ({ group, hold }: { group: string; hold?: string }) => {
      const inside = `${prefix}:test:${id}:${group}:inside`;
      const peak = `${prefix}:test:${id}:${group}:peak`;
      const now = await counters.incr(inside);
      await counters.eval(
        "if tonumber(redis.call('GET', KEYS[1]) or '0') < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]) end",
        1,
        peak,
        now,
      );
      if (hold) while ((await counters.get(hold)) === null) await new Promise((r) => setTimeout(r, 20));
      else await new Promise((r) => setTimeout(r, 30));
      await counters.decr(inside);
      return { group };
    },
  });
}

const PerAgent = cappedAgent('capped', { limit: 2 });
const PerGroup = cappedAgent('capped-by-group', {
  limit: 1,
  key: (input: { group: string }) => input.group,
});

const workers: FlotillaWorker[] = [];
let client: FlotillaClient;

beforeAll(async () => {
  counters = new Redis(redis.url);
  for (let i = 0; i < 3; i++) {
    const worker = createWorker({
      agents: [PerAgent, PerGroup],
      connection: redis.url,
      prefix,
      concurrency: 4,
      logger: pino({ level: 'silent' }),
    });
    workers.push(worker);
    await worker.waitUntilReady();
  }
  client = createClient({ connection: redis.url, prefix });
});

afterAll(async () => {
  await client?.close();
  for (const worker of workers) await worker.close();
  await counters?.quit();
});

describe('an agent capped at 2 runs', () => {
  it('never executes more than 2 at once across 3 workers, and every run succeeds', async () => {
    const runs = await Promise.all(
      Array.from({ length: 12 }, () => client.submit('capped', { group: 'all' })),
    );
    const statuses = await Promise.all(
      runs.map(async (run) => {
        await run.result().catch(() => undefined);
        return (await client.getRun(run.id))?.status;
      }),
    );
    expect(statuses).toEqual(statuses.map(() => 'succeeded'));
    expect(Number(await counters.get(`${prefix}:test:capped:all:peak`))).toBeLessThanOrEqual(2);
  });

  it('shows a run over the cap as queued, waiting for concurrency, until a place is released', async () => {
    const release = `${prefix}:test:release:${randomUUID()}`;
    const holders = await Promise.all(
      [0, 1].map(() => client.submit('capped', { group: 'held', hold: release })),
    );
    await waitUntil(
      async () => (Number(await counters.get(`${prefix}:test:capped:held:inside`)) === 2 ? true : undefined),
      { what: 'both places taken' },
    );
    const waiter = await client.submit('capped', { group: 'held' });
    const waiting = await waitUntil(
      async () => {
        const record = await client.getRun(waiter.id);
        return record?.waitingFor?.kind === 'concurrency' ? record : undefined;
      },
      { what: 'the third run waiting for the cap' },
    );
    expect(waiting.status).toBe('queued');
    expect(waiting.waitingFor?.detail).toBe('capped (limit 2)');
    await counters.set(release, '1');
    await Promise.all(holders.map((run) => run.result()));
    await expect(waiter.result()).resolves.toEqual({ group: 'held' });
    expect((await client.getRun(waiter.id))?.waitingFor).toBeUndefined();
  });
});

describe('a cap keyed by a function of the input', () => {
  it('caps each key on its own: one run per group at once, groups side by side', async () => {
    const groups = ['a', 'b', 'c'];
    const runs = await Promise.all(
      groups.flatMap((group) => [0, 1, 2].map(() => client.submit('capped-by-group', { group }))),
    );
    await Promise.all(runs.map((run) => run.result()));
    for (const group of groups)
      expect(Number(await counters.get(`${prefix}:test:capped-by-group:${group}:peak`))).toBe(1);
  });
});

describe('invalid caps', () => {
  it('fail at createAgent naming the field', () => {
    expect(() => createAgent({ id: 'bad-cap', handler: async () => 1, concurrency: { limit: 0 } })).toThrow(
      /concurrency\.limit/,
    );
  });
});
