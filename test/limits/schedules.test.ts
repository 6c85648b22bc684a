/**
 * Schedules and delayed runs on BullMQ's job schedulers: each firing is a normal run with its
 * own record and `scheduleId`, listed with `listRuns({ scheduleId })`; upsert by id is
 * idempotent; a schedule whose agent no worker serves shows `served: false`; missed firings
 * while no worker runs are not made up (BullMQ keeps only the next firing's job); `submit(…,
 * { delayMs | runAt })` starts no earlier than asked.
 */
import { createAgent, InvalidScheduleError } from '@flotilla/runtime';
import { createClient, type FlotillaClient, InvalidSubmitRequestError } from '@flotilla/runtime/client';
import { createWorker, type FlotillaWorker } from '@flotilla/runtime/worker';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useRedis } from '../support/redis.js';
import { waitUntil } from '../support/wait-until.js';

const redis = useRedis(import.meta.filename);
const prefix = `${redis.prefix}-schedules`;

const Ticker = createAgent({ id: 'ticker', handler: async (input: unknown) => ({ ticked: input }) });
const Late = createAgent({ id: 'late-ticker', handler: async () => 'late' });

const workers: FlotillaWorker[] = [];
let client: FlotillaClient;

function startWorker(agents: Parameters<typeof createWorker>[0]['agents']) {
  const worker = createWorker({ agents, connection: redis.url, prefix, logger: pino({ level: 'silent' }) });
  workers.push(worker);
  return worker.waitUntilReady();
}

/** The due time a firing's run id carries (`<scheduleId>-<due ms>`). */
const dueOf = (runId: string) => Number(runId.slice(runId.lastIndexOf('-') + 1));

beforeAll(async () => {
  await startWorker([Ticker]);
  client = createClient({ connection: redis.url, prefix });
});

afterAll(async () => {
  for (const schedule of (await client?.listSchedules()) ?? []) await client.removeSchedule(schedule.id);
  await client?.close();
  for (const worker of workers) await worker.close();
});

describe('a schedule every 300 ms', () => {
  it('fires normal runs with their own records, linked by scheduleId', async () => {
    const saved = await client.schedule({ id: 'tick', agentId: 'ticker', input: { n: 1 }, everyMs: 300 });
    expect(saved).toMatchObject({ id: 'tick', agentId: 'ticker', everyMs: 300, served: true });
    const list = await waitUntil(
      async () => {
        const page = await client.listRuns({ scheduleId: 'tick', status: 'succeeded' });
        return page.runs.length >= 2 ? page : undefined;
      },
      { what: 'two firings of the schedule' },
    );
    for (const run of list.runs) {
      expect(run).toMatchObject({ agentId: 'ticker', scheduleId: 'tick', output: { ticked: { n: 1 } } });
      expect(run.runId).toMatch(/^tick-\d{13}$/);
    }
    expect(await client.removeSchedule('tick')).toBe(true);
    expect(await client.removeSchedule('tick')).toBe(false);
  });

  it('is saved once however often it is saved (idempotent upsert by id)', async () => {
    await client.schedule({ id: 'daily', agentId: 'ticker', cron: '0 9 * * *', timezone: 'Europe/Paris' });
    const again = await client.schedule({ id: 'daily', agentId: 'ticker', cron: '0 10 * * *' });
    const schedules = (await client.listSchedules()).filter((schedule) => schedule.id === 'daily');
    expect(schedules).toHaveLength(1);
    expect(schedules[0]).toMatchObject({ cron: '0 10 * * *', served: true });
    expect(again.nextRunAt).toBeGreaterThan(Date.now());
    await client.removeSchedule('daily');
  });
});

describe('a schedule of an agent no worker serves', () => {
  it('is listed as not served, and its missed firings are not made up once a worker comes', async () => {
    const savedAt = Date.now();
    await client.schedule({ id: 'late', agentId: 'late-ticker', everyMs: 200 });
    expect((await client.listSchedules()).find((schedule) => schedule.id === 'late')?.served).toBe(false);
    // Let at least five firings fall due while nobody serves the agent.
    await waitUntil(async () => (Date.now() > savedAt + 1000 ? true : undefined), { what: 'missed firings' });
    const workerStartedAt = Date.now();
    await startWorker([Late]);
    const firings = await waitUntil(
      async () => {
        const page = await client.listRuns({ scheduleId: 'late', status: 'succeeded' });
        return page.runs.length >= 2 ? page.runs : undefined;
      },
      { what: 'firings after the worker came' },
    );
    await client.removeSchedule('late');
    // BullMQ kept one pending firing: it ran late; the ones due meanwhile never ran.
    const dueWhileDown = firings.filter((run) => dueOf(run.runId) < workerStartedAt);
    expect(dueWhileDown).toHaveLength(1);
  });
});

describe('invalid schedules', () => {
  it('fail with InvalidScheduleError naming the field, writing nothing', async () => {
    const both = client.schedule({ id: 'x', agentId: 'ticker', cron: '* * * * *', everyMs: 1000 });
    await expect(both).rejects.toThrow(InvalidScheduleError);
    await expect(client.schedule({ id: 'x', agentId: 'ticker', everyMs: 5 })).rejects.toMatchObject({
      field: 'everyMs',
    });
    await expect(client.schedule({ id: 'x', agentId: 'ticker', cron: 'not a cron' })).rejects.toMatchObject({
      name: 'InvalidScheduleError',
      field: 'cron',
    });
    expect((await client.listSchedules()).map((schedule) => schedule.id)).not.toContain('x');
  });
});

describe('a delayed submit', () => {
  it('starts no earlier than runAt', async () => {
    const runAt = Date.now() + 400;
    const run = await client.submit('ticker', { later: true }, { runAt });
    expect((await client.getRun(run.id))?.status).toBe('queued');
    await expect(run.result()).resolves.toEqual({ ticked: { later: true } });
    expect((await client.getRun(run.id))?.startedAt).toBeGreaterThanOrEqual(runAt);
  });

  it('refuses delayMs and runAt together', async () => {
    await expect(client.submit('ticker', {}, { delayMs: 10, runAt: Date.now() })).rejects.toThrow(
      InvalidSubmitRequestError,
    );
  });
});
