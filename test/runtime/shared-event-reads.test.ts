/**
 * A client awaiting many runs holds a bounded number of Redis connections, on one Redis (one
 * shared blocking XREAD) and on a Redis Cluster (`shared-event-reads.cluster.test.ts`: sharded
 * notices on one subscriber connection per master). Runs are written by the real records and
 * sink, as a worker writes them; no worker is needed.
 */
import { randomUUID } from 'node:crypto';
import { createClient, type FlotillaClient, type StreamedRunEvent } from '@flotilla/runtime/client';
import {
  eventNoticeChannel,
  eventsConnectionName,
  RedisRunRecords,
  runKeys,
} from '@flotilla/runtime/internals';
import type { Cluster, Redis } from 'ioredis';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { emitGeneration as emitRunGeneration, endRun } from '../../bench/written-runs.mjs';
import { useRedis } from '../support/redis.js';

const fixture = useRedis(import.meta.filename);
let records: RedisRunRecords;

beforeAll(() => {
  records = new RedisRunRecords({ redis: fixture.connect(), prefix: fixture.prefix });
});

/** The nodes to count clients on: every master of a cluster, or the one Redis. */
function nodes(): Redis[] {
  return fixture.redis.isCluster ? (fixture.redis as unknown as Cluster).nodes('master') : [fixture.redis];
}

/** Client connections on every node (`CLIENT LIST`), summed. */
async function connectionCount(): Promise<number> {
  const lists = await Promise.all(nodes().map((node) => node.client('LIST') as Promise<string>));
  return lists.reduce((sum, list) => sum + list.split('\n').filter((line) => line.trim() !== '').length, 0);
}

/** Subscribers of a run's event notices, over every node (always 0 on one Redis). */
async function noticeSubscribers(runId: string): Promise<number> {
  const channel = eventNoticeChannel(runKeys(fixture.prefix, runId).events);
  const replies = await Promise.all(
    nodes().map((node) => node.call('PUBSUB', 'SHARDNUMSUB', channel) as Promise<[string, number]>),
  );
  return replies.reduce((sum, [, count]) => sum + Number(count), 0);
}

/**
 * Resolves once the client's waits for `runIds` are in place on Redis: on a cluster, each run's
 * notice channel has its subscriber; on one Redis, the client's shared reader is blocked in XREAD.
 */
async function waitsInPlace(runIds: string[]): Promise<void> {
  await vi.waitFor(
    async () => {
      if (fixture.redis.isCluster) {
        const subscribers = await Promise.all(runIds.map((runId) => noticeSubscribers(runId)));
        expect(subscribers.filter((count) => count !== 1)).toEqual([]);
        return;
      }
      const name = eventsConnectionName(fixture.prefix);
      const clients = ((await fixture.redis.client('LIST')) as string).split('\n');
      const blocked = clients.filter(
        (line) => line.includes(` name=${name} `) && line.includes(' cmd=xread') && /\bflags=\S*b/.test(line),
      );
      expect(blocked).toHaveLength(1);
    },
    { timeout: 10_000, interval: 20 },
  );
}

async function newRun(): Promise<string> {
  const runId = `run-${randomUUID()}`;
  await records.create({ runId, agentId: 'writer' });
  return runId;
}

const emitGeneration = (runId: string, generation: number) =>
  emitRunGeneration(fixture.redis, fixture.prefix, runId, generation);

async function finish(runId: string): Promise<void> {
  await endRun(records, runId, runId);
}

async function collect(events: AsyncIterable<StreamedRunEvent>): Promise<StreamedRunEvent[]> {
  const seen: StreamedRunEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

const kinds = (events: StreamedRunEvent[]) =>
  events.map((event) => (event.type === 'generation-start' ? event.generation : event.type));

describe('shared event reads', () => {
  it('awaits 200 runs from one client on a bounded number of connections, every result arriving', async () => {
    const runIds = await Promise.all(Array.from({ length: 200 }, () => newRun()));
    const before = await connectionCount();
    const client = createClient({ connection: fixture.url, prefix: fixture.prefix, shareEventReads: true });
    try {
      const results = runIds.map((runId) => client.run<string>(runId).result());
      const following = runIds.slice(0, 20).map((runId) => collect(client.run(runId).events()));
      await waitsInPlace(runIds);
      const during = await connectionCount();
      await Promise.all(runIds.map((runId) => emitGeneration(runId, 0)));
      await Promise.all(runIds.map((runId) => finish(runId)));
      expect(await Promise.all(results)).toEqual(runIds);
      for (const events of await Promise.all(following)) expect(kinds(events)).toEqual([0, 'run-end']);
      // A connection per master for commands, one for the shared reader, and (on a cluster) the
      // subscriber's own slot lookups: never one per run, while waiting or after.
      expect(during - before).toBeLessThanOrEqual(3 * nodes().length);
      expect((await connectionCount()) - before).toBeLessThanOrEqual(3 * nodes().length);
    } finally {
      await client.close();
    }
  });

  it('gives a reader joining after run-end every event and the result', async () => {
    const runId = await newRun();
    await emitGeneration(runId, 0);
    await finish(runId);
    const client = createClient({ connection: fixture.url, prefix: fixture.prefix, shareEventReads: true });
    try {
      expect(await client.run<string>(runId).result()).toBe(runId);
      expect(kinds(await collect(client.run(runId).events()))).toEqual([0, 'run-end']);
    } finally {
      await client.close();
    }
  });

  it('ends an aborted reader at once and drops its wait; the others read on', async () => {
    const [aborted, kept] = [await newRun(), await newRun()];
    const client = createClient({ connection: fixture.url, prefix: fixture.prefix, shareEventReads: true });
    try {
      const controller = new AbortController();
      const abortedReading = (async () => {
        const seen: StreamedRunEvent[] = [];
        for await (const event of client.run(aborted).events({ signal: controller.signal })) {
          seen.push(event);
          // Aborted once its wait for the next event is in place (not awaited: the wait starts when
          // this body returns).
          const abort = () => controller.abort();
          waitsInPlace([aborted]).then(abort, abort);
        }
        return seen;
      })();
      const keptReading = collect(client.run(kept).events());
      await emitGeneration(aborted, 0);
      expect(kinds(await abortedReading)).toEqual([0]);
      if (fixture.redis.isCluster)
        await vi.waitFor(async () => expect(await noticeSubscribers(aborted)).toBe(0), { timeout: 10_000 });
      await emitGeneration(kept, 1);
      await finish(kept);
      expect(kinds(await keptReading)).toEqual([1, 'run-end']);
      expect(await noticeSubscribers(kept)).toBe(0);
    } finally {
      await client.close();
    }
  });

  it('reads on after its subscriber connections were killed (notices lost meanwhile)', async () => {
    const runId = await newRun();
    const client = createClient({ connection: fixture.url, prefix: fixture.prefix, shareEventReads: true });
    try {
      const seen: StreamedRunEvent[] = [];
      const reading = (async () => {
        for await (const event of client.run(runId).events()) seen.push(event);
      })();
      await emitGeneration(runId, 0);
      await vi.waitFor(() => expect(seen).toHaveLength(1), { timeout: 10_000 });
      // On a cluster: the sharded subscribers (pub/sub clients) go; ioredis opens them again.
      await Promise.all(nodes().map((node) => node.client('KILL', 'TYPE', 'pubsub')));
      await emitGeneration(runId, 1);
      await vi.waitFor(() => expect(seen).toHaveLength(2), { timeout: 10_000 });
      await emitGeneration(runId, 2);
      await finish(runId);
      await reading;
      expect(kinds(seen)).toEqual([0, 1, 2, 'run-end']);
      expect(await client.run<string>(runId).result()).toBe(runId);
    } finally {
      await client.close();
    }
  });

  it('ends every pending reader when the client closes', async () => {
    const runIds = await Promise.all(Array.from({ length: 5 }, () => newRun()));
    const client: FlotillaClient = createClient({
      connection: fixture.url,
      prefix: fixture.prefix,
      shareEventReads: true,
    });
    const readings = runIds.map((runId) => collect(client.run(runId).events()));
    const waits = runIds.map((runId) => client.run(runId).result());
    const settling = Promise.allSettled([...readings, ...waits]);
    await waitsInPlace(runIds);
    await client.close();
    // Ended at once (the closed client's error, or its connection's), not left waiting for one.
    const settled = await settling;
    expect(settled.map((outcome) => outcome.status)).toEqual(Array(10).fill('rejected'));
    for (const outcome of settled)
      expect(String((outcome as PromiseRejectedResult).reason)).toMatch(
        /client was closed|Cluster is ended|Connection is closed/,
      );
  });
});
