/**
 * `RunHandle.events({ signal, after })` over real Redis: a run record and its event stream are
 * written by the real sink and records; no worker is needed.
 */
import { randomUUID } from 'node:crypto';
import { emptyUsage } from '@flotilla/ir';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { useRedis } from '../../../../test/support/redis.js';
import { RedisRunEventSink } from '../events/redis-run-event-sink.js';
import type { StreamedRunEvent } from '../events/redis-run-event-stream.js';
import { RedisRunRecords } from '../runs/redis-run-records.js';
import { createClient, type FlotillaClient } from './create-client.js';
import { eventsConnectionName } from './run-handle.js';

const fixture = useRedis(import.meta.filename);
let client: FlotillaClient;
let records: RedisRunRecords;

beforeAll(() => {
  client = createClient({ connection: fixture.url, prefix: fixture.prefix });
  records = new RedisRunRecords({ redis: fixture.connect(), prefix: fixture.prefix });
});

afterAll(async () => {
  await client?.close();
});

/** A queued run whose stream holds three generation events (the run has not ended). */
async function runWithThreeEvents(): Promise<string> {
  const runId = `run-${randomUUID()}`;
  await records.create({ runId, agentId: 'writer' });
  const sink = new RedisRunEventSink({ redis: fixture.redis, prefix: fixture.prefix, runId });
  for (const generation of [0, 1, 2]) {
    sink.emit({
      type: 'generation-start',
      runId,
      at: Date.now(),
      callPath: 'root/agent:writer:0',
      agentId: 'writer',
      generation,
    });
  }
  await sink.flush();
  return runId;
}

/** Event-reading connections this file's client has open, from `CLIENT LIST`. */
async function openReaders(): Promise<number> {
  const list = (await fixture.redis.client('LIST')) as string;
  const name = `name=${eventsConnectionName(fixture.prefix)} `;
  return list.split('\n').filter((line) => line.includes(name)).length;
}

async function collect(events: AsyncIterable<StreamedRunEvent>): Promise<StreamedRunEvent[]> {
  const seen: StreamedRunEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

describe('RunHandle.events', () => {
  it('ends the iteration and closes its blocking connection when the signal aborts', async () => {
    const runId = await runWithThreeEvents();
    const controller = new AbortController();
    const iterator = client.run(runId).events({ signal: controller.signal })[Symbol.asyncIterator]();
    for (let read = 0; read < 3; read++) expect((await iterator.next()).done).toBe(false);
    const blocked = iterator.next(); // the run has not ended: this read blocks on XREAD
    await vi.waitFor(async () => expect(await openReaders()).toBe(1), { timeout: 5000 });
    controller.abort();
    await expect(blocked).resolves.toEqual({ done: true, value: undefined });
    await vi.waitFor(async () => expect(await openReaders()).toBe(0), { timeout: 5000 });
  });

  it('resumes after an event id without repeating the events up to it', async () => {
    const runId = await runWithThreeEvents();
    await records.finish(runId, 'root/agent:writer:0', {
      status: 'succeeded',
      output: 'done',
      usage: emptyUsage(),
      modelCalls: 0,
    });
    const all = await collect(client.run(runId).events());
    expect(all.map((event) => event.type)).toEqual([
      'generation-start',
      'generation-start',
      'generation-start',
      'run-end',
    ]);
    const resumed = await collect(client.run(runId).events({ after: all[1]?.eventId }));
    expect(resumed).toEqual(all.slice(2));
    expect(resumed[0]).toMatchObject({ generation: 2 });
  });
});
