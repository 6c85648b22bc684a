/**
 * `RunHandle.events({ signal, after })` over real Redis: a run record and its event stream are
 * written by the real sink and records; no worker is needed.
 */
import { randomUUID } from 'node:crypto';
import { emptyUsage } from '@flotilla/ir';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { useRedis } from '../../../../test/support/redis.js';
import { AbortError, RunTimeoutError, UnknownAgentError } from '../errors/run-errors.js';
import { serializeError } from '../errors/serialize-error.js';
import { runEndChannel } from '../events/event-notice.js';
import { RedisRunEventSink } from '../events/redis-run-event-sink.js';
import type { StreamedRunEvent } from '../events/redis-run-event-stream.js';
import { runKeys } from '../keys.js';
import { RedisRunRecords } from '../runs/redis-run-records.js';
import { MAX_RUN_END_OUTCOME_CHARS } from '../runs/run-end-text.js';
import type { RunEnding } from '../runs/run-script-args.js';
import { createClient, type FlotillaClient } from './create-client.js';
import { eventsConnectionName } from './run-handle.js';

const fixture = useRedis(import.meta.filename);
let records: RedisRunRecords;

beforeAll(() => {
  records = new RedisRunRecords({ redis: fixture.connect(), prefix: fixture.prefix });
});

/** Appends one generation-start event per entry of `generations` to the run's stream, as a worker would. */
async function emitGenerations(runId: string, generations: number[]): Promise<void> {
  const sink = new RedisRunEventSink({ redis: fixture.redis, prefix: fixture.prefix, runId });
  for (const generation of generations) {
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
}

/** A queued run whose stream holds three generation events (the run has not ended). */
async function runWithThreeEvents(): Promise<string> {
  const runId = `run-${randomUUID()}`;
  await records.create({ runId, agentId: 'writer' });
  await emitGenerations(runId, [0, 1, 2]);
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

/**
 * Subscribers of the run's end channel: `result()` waits there on one Redis
 * (`events/run-end-reader.ts`), woken by the run's end alone.
 */
async function endWaiters(runId: string): Promise<number> {
  const channel = runEndChannel(runKeys(fixture.prefix, runId).events);
  const [, count] = (await fixture.redis.call('PUBSUB', 'NUMSUB', channel)) as [string, number];
  return Number(count);
}

/** This file's event-reading connections blocked in a read (`CLIENT LIST` flag `b`). */
async function blockedReaders(): Promise<string[]> {
  const list = (await fixture.redis.client('LIST')) as string;
  const name = `name=${eventsConnectionName(fixture.prefix)} `;
  return list.split('\n').filter((line) => line.includes(name) && /\bflags=\w*b/.test(line));
}

describe('RunHandle.result', () => {
  let client: FlotillaClient;
  beforeAll(() => {
    client = createClient({ connection: fixture.url, prefix: fixture.prefix });
  });
  afterAll(async () => {
    await client?.close();
  });

  it('keeps waiting when the record is not terminal after a run-end that leaves its outcome to the record, and settles on the terminal record', async () => {
    const runId = `run-${randomUUID()}`;
    await records.create({ runId, agentId: 'writer' });
    let outcome: { value?: unknown; error?: unknown } | undefined;
    client
      .run(runId)
      .result()
      .then(
        (value) => {
          outcome = { value };
        },
        (error: unknown) => {
          outcome = { error };
        },
      );
    // result() waits for the run's end on the client's reader for results.
    await vi.waitFor(async () => expect(await endWaiters(runId)).toBe(1), { timeout: 5000 });
    // A run-end whose record write was lost (a Redis crash): the record says queued.
    const sink = new RedisRunEventSink({ redis: fixture.redis, prefix: fixture.prefix, runId });
    sink.emit({
      type: 'run-end',
      runId,
      at: Date.now(),
      callPath: 'root/agent:writer:0',
      status: 'succeeded',
      outcomeInRecord: true,
      usage: emptyUsage(),
      modelCalls: 1,
    });
    await sink.flush();
    // result() does not settle on it (no notice announced it, and the record, read when a wait
    // passes, says the run has not ended): it still waits for the run's end.
    await vi.waitFor(async () => expect(await endWaiters(runId)).toBe(1), { timeout: 5000 });
    expect(outcome).toBeUndefined();

    // The run executes again and ends: result() settles on that end.
    await records.start({ runId, agentId: 'writer' });
    await records.finish(runId, 'root/agent:writer:0', {
      status: 'succeeded',
      output: 'done',
      usage: emptyUsage(),
      modelCalls: 1,
    });
    await vi.waitFor(() => expect(outcome).toEqual({ value: 'done' }), { timeout: 5000 });
  });
});

describe('RunHandle.result of a handle from submit (no record read before the stream)', () => {
  let client: FlotillaClient;
  beforeAll(() => {
    client = createClient({ connection: fixture.url, prefix: fixture.prefix });
  });
  afterAll(async () => {
    await client?.close();
  });

  /** Ends the (queued) run as a worker would: start, then finish, which compacts its stream. */
  async function finishRun(runId: string, output: string): Promise<void> {
    await records.start({ runId, agentId: 'writer' });
    await records.finish(runId, 'root/agent:writer:0', {
      status: 'succeeded',
      output,
      usage: emptyUsage(),
      modelCalls: 1,
    });
  }

  it('settles on a run that ended before result() was called, from its stream', async () => {
    const handle = await client.submit<string>('writer', { text: 'hi' });
    await finishRun(handle.id, 'early');
    expect(await handle.result()).toBe('early');
  });

  it('settles on a run that ended and whose stream is already gone, through the record and timeline', async () => {
    const handle = await client.submit<string>('writer', { text: 'hi' });
    await finishRun(handle.id, 'compacted');
    await fixture.redis.del(runKeys(fixture.prefix, handle.id).events);
    expect(await handle.result()).toBe('compacted');
  });

  it('settles the handle of a resubmit of an ended run (the record is read: the run is not queued)', async () => {
    const runId = `run-${randomUUID()}`;
    await client.submit('writer', { text: 'hi' }, { runId });
    await finishRun(runId, 'once');
    const again = await client.submit<string>('writer', { text: 'hi' }, { runId });
    expect(await again.result()).toBe('once');
  });

  it('waits past events that mention run-end without being one, and settles on the run-end', async () => {
    const handle = await client.submit<string>('writer', { text: 'hi' });
    const sink = new RedisRunEventSink({ redis: fixture.redis, prefix: fixture.prefix, runId: handle.id });
    // An event whose text holds "run-end" (here its agent id) is parsed and passed over.
    sink.emit({
      type: 'generation-start',
      runId: handle.id,
      at: Date.now(),
      callPath: 'root/agent:run-end:0',
      agentId: 'run-end',
      generation: 0,
    });
    await sink.flush();
    let settled = false;
    const result = handle.result().finally(() => {
      settled = true;
    });
    await vi.waitFor(async () => expect(await endWaiters(handle.id)).toBe(1), { timeout: 5000 });
    expect(settled).toBe(false);
    await finishRun(handle.id, 'after');
    expect(await result).toBe('after');
  });
});

describe('RunHandle.result: the outcome in the run-end event, or in the record', () => {
  let client: FlotillaClient;
  beforeAll(() => {
    client = createClient({ connection: fixture.url, prefix: fixture.prefix });
  });
  afterAll(async () => {
    await client?.close();
  });

  /** Starts `result()` of a just submitted run and waits until it waits for the run's end. */
  async function waitingResult<Output>(): Promise<{ runId: string; result: Promise<Output> }> {
    const handle = await client.submit<Output>('writer', { text: 'hi' });
    const result = handle.result();
    // Settled or not, it is awaited by the caller; no unhandled rejection meanwhile.
    result.catch(() => undefined);
    await vi.waitFor(async () => expect(await endWaiters(handle.id)).toBe(1), { timeout: 5000 });
    await records.start({ runId: handle.id, agentId: 'writer' });
    return { runId: handle.id, result };
  }

  async function end(runId: string, ending: Omit<RunEnding, 'usage' | 'modelCalls'>): Promise<void> {
    await records.finish(runId, 'root/agent:writer:0', { ...ending, usage: emptyUsage(), modelCalls: 1 });
  }

  it('returns an output above the run-end limit whole, read from the record', async () => {
    const { runId, result } = await waitingResult<{ text: string }>();
    const output = { text: 'x'.repeat(MAX_RUN_END_OUTCOME_CHARS * 2) };
    await end(runId, { status: 'succeeded', output });
    expect(await result).toEqual(output);
    // The event said where the output is; events() gives it whole all the same.
    const events = await collect(client.run(runId).events());
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'succeeded', output });
    expect(events.at(-1)).not.toHaveProperty('outcomeInRecord');
  });

  it('gives a live events() reader the whole output of a run-end that left it to the record', async () => {
    const handle = await client.submit<{ text: string }>('writer', { text: 'hi' });
    const reading = collect(client.run(handle.id).events());
    await vi.waitFor(async () => expect(await blockedReaders()).toHaveLength(1), { timeout: 5000 });
    await records.start({ runId: handle.id, agentId: 'writer' });
    const output = { text: 'z'.repeat(MAX_RUN_END_OUTCOME_CHARS * 2) };
    await end(handle.id, { status: 'succeeded', output });
    const last = (await reading).at(-1);
    expect(last).toMatchObject({ type: 'run-end', status: 'succeeded', output });
    expect(last).not.toHaveProperty('outcomeInRecord');
  });

  it('settles on a run-end written before run-ends carried their outcome, through the record', async () => {
    const { runId, result } = await waitingResult<string>();
    // An earlier version's end: the record ended, the event says only that it did.
    const keys = runKeys(fixture.prefix, runId);
    await fixture.redis.hset(keys.record, { status: 'succeeded', output: JSON.stringify('old') });
    const sink = new RedisRunEventSink({ redis: fixture.redis, prefix: fixture.prefix, runId });
    sink.emit({
      type: 'run-end',
      runId,
      at: Date.now(),
      callPath: 'root/agent:writer:0',
      status: 'succeeded',
      usage: emptyUsage(),
      modelCalls: 1,
    });
    await sink.flush();
    expect(await result).toBe('old');
  });

  it('returns undefined outputs as the record holds them (null)', async () => {
    const { runId, result } = await waitingResult<unknown>();
    await end(runId, { status: 'succeeded', output: undefined });
    expect(await result).toBeNull();
  });

  it('rejects a failed run with its typed error, from the event and from the record alike', async () => {
    const small = await waitingResult<never>();
    await end(small.runId, { status: 'failed', error: serializeError(new RunTimeoutError('r', 5, 7)) });
    const fromEvent = await small.result.catch((error: unknown) => error);
    expect(RunTimeoutError.is(fromEvent)).toBe(true);
    expect(fromEvent).toMatchObject({
      name: 'RunTimeoutError',
      message: new RunTimeoutError('r', 5, 7).message,
    });

    const large = await waitingResult<never>();
    const data = new UnknownAgentError('y'.repeat(MAX_RUN_END_OUTCOME_CHARS * 2), []);
    await end(large.runId, { status: 'failed', error: serializeError(data) });
    const fromRecord = await large.result.catch((error: unknown) => error);
    expect(UnknownAgentError.is(fromRecord)).toBe(true);
    expect((fromRecord as Error).message).toBe(data.message);
  });

  it('rejects a cancelled run with AbortError', async () => {
    const { runId, result } = await waitingResult<never>();
    await end(runId, { status: 'cancelled', error: serializeError(new AbortError('cancelled by a test')) });
    const error = await result.catch((caught: unknown) => caught);
    expect(AbortError.is(error)).toBe(true);
    expect((error as Error).message).toBe(new AbortError('cancelled by a test').message);
  });
});

describe.each([
  { shareEventReads: false, openAfterAbort: 0 },
  // The shared blocking connection stays for the next reader.
  { shareEventReads: true, openAfterAbort: 1 },
])('RunHandle.events with shareEventReads: $shareEventReads', ({ shareEventReads, openAfterAbort }) => {
  let client: FlotillaClient;
  beforeAll(() => {
    client = createClient({ connection: fixture.url, prefix: fixture.prefix, shareEventReads });
  });
  afterAll(async () => {
    await client?.close();
  });

  it('ends the iteration (and frees its blocking read) when the signal aborts', async () => {
    const runId = await runWithThreeEvents();
    const controller = new AbortController();
    const iterator = client.run(runId).events({ signal: controller.signal })[Symbol.asyncIterator]();
    for (let read = 0; read < 3; read++) expect((await iterator.next()).done).toBe(false);
    const blocked = iterator.next(); // the run has not ended: this read blocks on XREAD
    await vi.waitFor(async () => expect(await openReaders()).toBe(1), { timeout: 5000 });
    controller.abort();
    await expect(blocked).resolves.toEqual({ done: true, value: undefined });
    await vi.waitFor(async () => expect(await openReaders()).toBe(openAfterAbort), { timeout: 5000 });
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

  it('resumes live after a disconnect while the run goes on: no event twice, one run-end', async () => {
    const runId = await runWithThreeEvents();
    // Read two events, then disconnect.
    const controller = new AbortController();
    const first: StreamedRunEvent[] = [];
    for await (const event of client.run(runId).events({ signal: controller.signal })) {
      first.push(event);
      if (first.length === 2) controller.abort();
    }
    expect(first.map((event) => event.type)).toEqual(['generation-start', 'generation-start']);

    // The run goes on while no one listens.
    await emitGenerations(runId, [3, 4]);

    // Reconnect after the last event seen; the reader catches up, then waits live.
    const resumed: StreamedRunEvent[] = [];
    const reading = (async () => {
      for await (const event of client.run(runId).events({ after: first.at(-1)?.eventId }))
        resumed.push(event);
    })();
    await vi.waitFor(() => expect(resumed).toHaveLength(3), { timeout: 5000 });
    await vi.waitFor(async () => expect(await openReaders()).toBe(1), { timeout: 5000 });
    await emitGenerations(runId, [5]);
    await vi.waitFor(() => expect(resumed).toHaveLength(4), { timeout: 5000 });
    await records.finish(runId, 'root/agent:writer:0', {
      status: 'succeeded',
      output: 'done',
      usage: emptyUsage(),
      modelCalls: 0,
    });
    await reading;

    const seen = [...first, ...resumed];
    expect(new Set(seen.map((event) => event.eventId)).size).toBe(seen.length);
    expect(seen.map((event) => (event.type === 'generation-start' ? event.generation : event.type))).toEqual([
      0,
      1,
      2,
      3,
      4,
      5,
      'run-end',
    ]);
    // What the two connections saw is exactly the stream, read in one go.
    expect(seen).toEqual(await collect(client.run(runId).events()));
  });
});

describe('RunHandle.events with shareEventReads: true, many readers', () => {
  it('follows 50 live runs on one blocking connection, each reader getting its own events in order', async () => {
    const client = createClient({ connection: fixture.url, prefix: fixture.prefix, shareEventReads: true });
    try {
      const runIds = await Promise.all(Array.from({ length: 50 }, () => runWithThreeEvents()));
      const readings = runIds.map((runId) => collect(client.run(runId).events()));
      await vi.waitFor(async () => expect(await openReaders()).toBe(1), { timeout: 5000 });
      // Live events after every reader caught up, then the end of each run.
      await Promise.all(runIds.map((runId) => emitGenerations(runId, [3])));
      for (const runId of runIds)
        await records.finish(runId, 'root/agent:writer:0', {
          status: 'succeeded',
          output: runId,
          usage: emptyUsage(),
          modelCalls: 0,
        });
      const results = await Promise.all(readings);
      for (const [index, events] of results.entries()) {
        expect(
          events.map((event) => (event.type === 'generation-start' ? event.generation : event.type)),
        ).toEqual([0, 1, 2, 3, 'run-end']);
        expect(events.every((event) => event.runId === runIds[index])).toBe(true);
      }
      expect(await openReaders()).toBe(1);
    } finally {
      await client.close();
    }
  });
});
