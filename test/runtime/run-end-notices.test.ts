/**
 * `result()` on one Redis is woken by its run's end alone (`events/run-end-reader.ts`): the
 * finish publishes the run-end on the run's end channel, so a client awaiting many runs sends no
 * blocking read however many events those runs write, and reads each run's stream at most once.
 * A run ended by a finisher that publishes nothing (a worker of an earlier version, during a
 * rolling deploy) still settles, and after a few such the client reads streams instead, as
 * before. Runs are written by the real records and sink, as a worker writes them.
 */
import { randomUUID } from 'node:crypto';
import { emptyUsage } from '@flotilla/ir';
import { createClient, type FlotillaClient } from '@flotilla/runtime/client';
import {
  eventsConnectionName,
  RedisRunEventSink,
  RedisRunRecords,
  runEndChannel,
  runKeys,
} from '@flotilla/runtime/internals';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { emitGeneration as emitRunGeneration, endRun } from '../../bench/written-runs.mjs';
import { monitoredCommands } from '../support/monitored-commands.js';
import { useRedis } from '../support/redis.js';

const fixture = useRedis(import.meta.filename);
let records: RedisRunRecords;

beforeAll(() => {
  records = new RedisRunRecords({ redis: fixture.connect(), prefix: fixture.prefix });
});

async function newRun(): Promise<string> {
  const runId = `run-${randomUUID()}`;
  await records.create({ runId, agentId: 'writer' });
  await records.start({ runId, agentId: 'writer' });
  return runId;
}

const emitGeneration = (runId: string, generation: number) =>
  emitRunGeneration(fixture.redis, fixture.prefix, runId, generation);

/** Subscribers of each run's end channel. */
async function endWaiters(runIds: string[]): Promise<number[]> {
  const channels = runIds.map((runId) => runEndChannel(runKeys(fixture.prefix, runId).events));
  const reply = (await fixture.redis.call('PUBSUB', 'NUMSUB', ...channels)) as (string | number)[];
  return runIds.map((_, index) => Number(reply[2 * index + 1]));
}

/** The client id of this file's one end-notice subscriber (`CLIENT LIST`: its name, flag `P`). */
async function subscriberId(): Promise<string> {
  const name = ` name=${eventsConnectionName(fixture.prefix)} `;
  const clients = ((await fixture.redis.client('LIST')) as string).split('\n');
  const subscribers = clients.filter((line) => line.includes(name) && /\bflags=\S*P/.test(line));
  expect(subscribers).toHaveLength(1);
  return /\bid=(\d+)/.exec(subscribers[0] as string)?.[1] ?? '';
}

/** A new run whose `result()` `client` awaits, once it waits on the run's end channel. */
async function awaitedRun(client: FlotillaClient): Promise<{ runId: string; result: Promise<string> }> {
  const runId = await newRun();
  const result = client.run<string>(runId).result();
  await vi.waitFor(async () => expect(await endWaiters([runId])).toEqual([1]), { timeout: 10_000 });
  return { runId, result };
}

/** `client` still waits for end notices (no blocking stream read) and settles on one. */
async function expectNoticeWaits(client: FlotillaClient, output: string): Promise<void> {
  const { runId, result } = await awaitedRun(client);
  expect(await blockedXread()).toBe(false);
  await endRun(records, runId, output);
  expect(await result).toBe(output);
}

/** Whether this file's clients have an event-reading connection blocked in XREAD. */
async function blockedXread(): Promise<boolean> {
  const name = ` name=${eventsConnectionName(fixture.prefix)} `;
  const clients = ((await fixture.redis.client('LIST')) as string).split('\n');
  return clients.some(
    (line) => line.includes(name) && line.includes(' cmd=xread') && /\bflags=\S*b/.test(line),
  );
}

describe('result() woken by its run end', () => {
  it('awaits 100 runs that keep writing events with no blocking read, and at most one stream read per run', async () => {
    const runIds = await Promise.all(Array.from({ length: 100 }, () => newRun()));
    const client = createClient({ connection: fixture.url, prefix: fixture.prefix });
    try {
      const reads = await monitoredCommands(
        fixture.redis,
        ({ args, source }) =>
          source !== 'lua' &&
          args[0]?.toLowerCase() === 'xread' &&
          args.some((arg) => arg.startsWith(`${fixture.prefix}:`)),
        async () => {
          const results = runIds.map((runId) => client.run<string>(runId).result());
          await vi.waitFor(async () => expect(new Set(await endWaiters(runIds))).toEqual(new Set([1])), {
            timeout: 10_000,
          });
          for (const generation of [0, 1, 2])
            await Promise.all(runIds.map((runId) => emitGeneration(runId, generation)));
          await Promise.all(runIds.map((runId) => endRun(records, runId, runId)));
          expect(await Promise.all(results)).toEqual(runIds);
        },
      );
      expect(reads.filter(({ args }) => args.some((arg) => arg.toUpperCase() === 'BLOCK'))).toEqual([]);
      // Each stream named once at most (the reads of runs that began waiting together share one XREAD).
      const named = reads.flatMap(({ args }) => args.filter((arg) => arg.endsWith(':events')));
      expect(named.length).toBeLessThanOrEqual(runIds.length);
      expect(new Set(named).size).toBe(named.length);
      // Nobody waits on the channels any more.
      await vi.waitFor(async () => expect(new Set(await endWaiters(runIds))).toEqual(new Set([0])), {
        timeout: 10_000,
      });
    } finally {
      await client.close();
    }
  });

  it('settles runs that ended, with more than a page of events, before result() began waiting (no notice missed)', async () => {
    const client = createClient({ connection: fixture.url, prefix: fixture.prefix });
    try {
      for (const output of ['a', 'b', 'c']) {
        const handle = await client.submit<string>('writer', { text: output });
        await records.start({ runId: handle.id, agentId: 'writer' });
        const sink = new RedisRunEventSink({
          redis: fixture.redis,
          prefix: fixture.prefix,
          runId: handle.id,
        });
        for (let generation = 0; generation < 150; generation++)
          sink.emit({
            type: 'generation-start',
            runId: handle.id,
            at: Date.now(),
            callPath: 'root',
            agentId: 'writer',
            generation,
          });
        await sink.flush();
        await endRun(records, handle.id, output);
        expect(await handle.result()).toBe(output);
      }
      // Those ends were read from their streams, not taken for ends whose notice was lost: the
      // client still waits for notices.
      await expectNoticeWaits(client, 'd');
    } finally {
      await client.close();
    }
  });

  it('ends a run whose finisher may not publish (an ACL without channels): the end is written, result() settles', async () => {
    const user = `flotilla-no-channels-${randomUUID()}`;
    await fixture.redis.call(
      'ACL',
      'SETUSER',
      user,
      'on',
      '>secret',
      `~${fixture.prefix}:*`,
      '+@all',
      'resetchannels',
    );
    const restricted = new Redis(fixture.url, { username: user, password: 'secret' });
    const client = createClient({ connection: fixture.url, prefix: fixture.prefix });
    try {
      const runId = await newRun();
      const limited = new RedisRunRecords({ redis: restricted, prefix: fixture.prefix });
      expect(await endRun(limited, runId, 'ended')).toBe(true);
      expect(await records.get(runId)).toMatchObject({ status: 'succeeded', output: 'ended' });
      expect(await client.run<string>(runId).result()).toBe('ended');
      // The stream ends with the run-end all the same.
      const [last] = await fixture.redis.xrevrange(
        runKeys(fixture.prefix, runId).events,
        '+',
        '-',
        'COUNT',
        1,
      );
      expect(JSON.parse(last?.[1][1] ?? 'null')).toMatchObject({ type: 'run-end', status: 'succeeded' });
    } finally {
      await client.close();
      restricted.disconnect();
      await fixture.redis.call('ACL', 'DELUSER', user);
    }
  });

  it('settles runs whose notices a subscriber reconnect lost, and still waits for notices after', async () => {
    const client = createClient({ connection: fixture.url, prefix: fixture.prefix });
    try {
      for (const output of ['x', 'y', 'z']) {
        const { runId, result } = await awaitedRun(client);
        // The subscriber goes (ioredis connects it again); the end is published while it is away.
        expect(await fixture.redis.client('KILL', 'ID', await subscriberId())).toBe(1);
        await endRun(records, runId, output);
        expect(await result).toBe(output);
      }
      // Ends lost to a reconnect are not taken for a finisher that publishes none.
      await expectNoticeWaits(client, 'after');
    } finally {
      await client.close();
    }
  });

  it('settles runs ended without a notice (an earlier version), reads streams instead for ten minutes, said once', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(line) });
    const client = createClient({ connection: fixture.url, prefix: fixture.prefix, logger });
    try {
      for (const output of ['old-1', 'old-2', 'old-3']) {
        const { runId, result } = await awaitedRun(client);
        // An earlier version's end: its run-end and record, and no notice.
        const sink = new RedisRunEventSink({ redis: fixture.redis, prefix: fixture.prefix, runId });
        sink.emit({
          type: 'run-end',
          runId,
          at: Date.now(),
          callPath: 'root',
          status: 'succeeded',
          output,
          usage: emptyUsage(),
          modelCalls: 0,
        });
        await sink.flush();
        await fixture.redis.hset(runKeys(fixture.prefix, runId).record, {
          status: 'succeeded',
          output: JSON.stringify(output),
        });
        expect(await result).toBe(output);
      }
      expect(await blockedXread()).toBe(false);
      const runId = await newRun();
      const result = client.run<string>(runId).result();
      // The client's result() now blocks on the run's stream, as clients did before end notices.
      await vi.waitFor(async () => expect(await blockedXread()).toBe(true), { timeout: 10_000 });
      expect(await endWaiters([runId])).toEqual([0]);
      await endRun(records, runId, 'new');
      expect(await result).toBe('new');
      const warnings = lines.map((line) => JSON.parse(line) as { msg: string }).map(({ msg }) => msg);
      expect(warnings.filter((msg) => msg.includes('without an end notice'))).toHaveLength(1);

      // Ten minutes on (a rolling deploy's length), the client waits for notices again.
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + 10 * 60_000 + 1);
      const { runId: later, result: laterResult } = await awaitedRun(client);
      await endRun(records, later, 'later');
      expect(await laterResult).toBe('later');
    } finally {
      vi.useRealTimers();
      await client.close();
    }
  });
});
