/**
 * What a finished run keeps in Redis, through a real worker: its record, its compacted
 * timeline and its journal, each with an expiry, and nothing of its BullMQ job; a failed job
 * keeps no payload. The compacted timeline still replays to one `run-end`, and resumes after
 * any event id. Prints the bytes per finished run (a size, asserted against the 2 KB goal).
 */
import { randomUUID } from 'node:crypto';
import { createClient } from '@flotilla/runtime/client';
import { bullmqPrefix, COMPACTED_STREAM_GRACE_MS, runKeys } from '@flotilla/runtime/internals';
import { createWorker } from '@flotilla/runtime/worker';
import type { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FleetQueues } from '../support/fleet-queues.js';
import { useRedis } from '../support/redis.js';
import { waitUntil } from '../support/wait-until.js';
import { ChatAgent, chatModel } from './fixtures/agents.js';
import { useWorker } from './fixtures/in-process-worker.js';

const redis = useRedis(import.meta.filename);
const fixture = useWorker(redis);
const RUNS = 20;
/**
 * Keys without a TTL, whatever the number of runs: BullMQ's own keys of each agent queue (one
 * each) and the worker registry's two keys.
 */
const IMMORTAL_KEYS = /^(\{q\}:agents\/[^:]+:(meta|id|events)|\{workers\}:(live|expiries))$/;
/** The BullMQ key of a run's job (in its agent's queue). */
const jobKey = (agentId: string, runId: string) => `${bullmqPrefix(redis.prefix)}:agents/${agentId}:${runId}`;
let rawQueue: FleetQueues;

beforeAll(() => {
  rawQueue = new FleetQueues(redis.connect(), redis.prefix);
});
afterAll(async () => {
  await rawQueue.close();
});

async function keysUnder(connection: Redis, prefix: string) {
  const keys = await connection.keys(`${prefix}:*`);
  return Promise.all(
    keys.map(async (key) => ({
      key: key.slice(prefix.length + 1),
      ttl: await connection.ttl(key),
      bytes: Number(await connection.memory('USAGE', key, 'SAMPLES', 0)),
    })),
  );
}

/** BullMQ deletes an ended job right after the processor returns, so wait for it. */
async function jobGone(runId: string, agentId = 'chat'): Promise<void> {
  await vi.waitFor(async () => expect(await redis.redis.exists(jobKey(agentId, runId))).toBe(0), {
    timeout: 10_000,
  });
}

describe('a finished one-turn run', () => {
  it('keeps its record, timeline and journal, each expiring, in under 2 KB', async () => {
    const runs = await Promise.all(
      Array.from({ length: RUNS }, (_, index) => fixture.client.submit(ChatAgent, { message: `m${index}` })),
    );
    await Promise.all(runs.map((run) => run.result()));
    await Promise.all(runs.map((run) => jobGone(run.id)));

    // A compacted run's event stream lingers for a few seconds (COMPACTED_STREAM_GRACE_MS) after
    // its timeline is written: not what a finished run keeps.
    const graceSeconds = COMPACTED_STREAM_GRACE_MS / 1000;
    const keys = (await keysUnder(redis.redis, redis.prefix)).filter(
      ({ key, ttl }) => !(key.endsWith(':events') && ttl >= 0 && ttl <= graceSeconds),
    );
    const immortal = keys.filter(({ ttl }) => ttl === -1).map(({ key }) => key);
    expect(immortal.filter((key) => !IMMORTAL_KEYS.test(key))).toEqual([]);
    for (const run of runs) {
      const own = keys.filter(({ key }) => key.includes(`{r:${run.id}}`) || key.endsWith(run.id));
      expect(own.map(({ key }) => key.replace(/^run:\{r:[^}]+\}:/, '')).sort()).toEqual([
        'journal',
        'record',
        'timeline',
      ]);
    }
    const runBytes = keys
      .filter(({ key }) => key.startsWith('run:') || /^\{q\}:agents\/[^:]+:(completed|failed)$/.test(key))
      .reduce((sum, { bytes }) => sum + bytes, 0);
    const perRun = Math.round(runBytes / RUNS);
    process.stdout.write(`bytes per finished one-turn run: ${perRun} (record + timeline + journal)\n`);
    expect(perRun).toBeLessThanOrEqual(2048);
  });

  it('replays its compacted events to one run-end, and resumes after any event id', async () => {
    const run = await fixture.client.submit(ChatAgent, { message: 'replay me' });
    await run.result();
    const keys = runKeys(redis.prefix, run.id);
    // The stream stays only for a short grace after its timeline was written.
    const streamTtl = await redis.redis.pttl(keys.events); // -2: already gone
    expect(streamTtl === -2 || (streamTtl > 0 && streamTtl <= COMPACTED_STREAM_GRACE_MS)).toBe(true);
    expect(await redis.redis.exists(keys.timeline)).toBe(1);
    const events = [];
    for await (const event of run.events()) events.push(event);
    expect(events.map((event) => event.type)).toEqual([
      'run-start',
      'generation-start',
      'model-turn-start',
      'model-turn-end',
      'generation-end',
      'run-end',
    ]);
    expect(events.at(-1)).toMatchObject({ status: 'succeeded', runId: run.id, modelCalls: 1 });
    expect(events.every((event) => event.runId === run.id && /^\d+-\d+$/.test(event.eventId))).toBe(true);
    for (let seen = 0; seen < events.length; seen++) {
      const resumed = [];
      for await (const event of run.events({ after: events[seen]?.eventId })) resumed.push(event);
      expect(resumed).toEqual(events.slice(seen + 1));
    }
  });
});

describe('a failed job', () => {
  it('is removed with its payload, even when added raw without options', async () => {
    const runId = `raw-${randomUUID()}`;
    // In a served agent's queue (a worker takes only its agents' queues), under another name.
    await rawQueue
      .queue('chat')
      .add('no-such-agent', { input: JSON.stringify({ blob: 'x'.repeat(100_000) }) }, { jobId: runId });
    await vi.waitFor(async () => expect((await fixture.client.getRun(runId))?.status).toBe('failed'), {
      timeout: 10_000,
    });
    await jobGone(runId);
    expect(await fixture.client.getRun(runId)).toMatchObject({ error: { name: 'UnknownAgentError' } });
  });

  it('that its producer asked BullMQ to keep keeps no input', async () => {
    const runId = `raw-${randomUUID()}`;
    const input = JSON.stringify({ blob: 'x'.repeat(100_000) });
    await rawQueue.queue('chat').add('no-such-agent', { input }, { jobId: runId, removeOnFail: false });
    await vi.waitFor(async () => expect(await rawQueue.queue('chat').getJobState(runId)).toBe('failed'), {
      timeout: 10_000,
    });
    const job = await rawQueue.getJob(runId);
    expect(job?.data).toEqual({});
    // The 100 kB input is gone; what is left is BullMQ's bookkeeping, whose size varies with the
    // failure's stack trace (2–4 kB seen), so the bound is far above it and far below the input.
    expect(Number(await redis.redis.memory('USAGE', jobKey('chat', runId)))).toBeLessThan(10_000);
  });

  it('of a client-submitted run is removed too; the record keeps the error', async () => {
    const run = await fixture.client.submit('failing', { limit: 1 });
    await expect(run.result()).rejects.toMatchObject({ name: 'QuotaExceededError' });
    await jobGone(run.id, 'failing');
    expect(
      await redis.redis.zscore(`${bullmqPrefix(redis.prefix)}:agents/failing:failed`, run.id),
    ).toBeNull();
  });
});

describe('a conversation on a worker with conversationRetentionSeconds', () => {
  it('expires every key of the conversation that long after its latest turn', async () => {
    const queueName = 'retention';
    const worker = createWorker({
      agents: [ChatAgent],
      models: { 'chat-model': chatModel() },
      connection: redis.url,
      prefix: redis.prefix,
      queueName,
      logger: pino({ level: 'silent' }),
      conversationRetentionSeconds: 3600,
    });
    const client = createClient({ connection: redis.url, prefix: redis.prefix, queueName });
    try {
      const conversationId = `c-${randomUUID()}`;
      const run = await client.submit(ChatAgent, { message: 'hi' }, { conversationId });
      await run.result();
      // The gate's keys (line of writers, lease) are deleted, not expired, once the run left the line.
      await waitUntil(
        async () =>
          (await redis.redis.keys(`${redis.prefix}:conv:{c:${conversationId}}:gate:*`)).length === 0
            ? true
            : undefined,
        { what: 'the conversation gate to be empty' },
      );
      const keys = await redis.redis.keys(`${redis.prefix}:conv:{c:${conversationId}}:*`);
      expect(keys.length).toBeGreaterThanOrEqual(4);
      for (const key of keys) {
        expect(await redis.redis.ttl(key)).toBeGreaterThan(3500);
        expect(await redis.redis.ttl(key)).toBeLessThanOrEqual(3600);
      }
    } finally {
      await client.close();
      await worker.close();
    }
  });
});
