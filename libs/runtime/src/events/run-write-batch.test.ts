import { randomUUID } from 'node:crypto';
import { emptyUsage } from '@flotilla/ir';
import { describe, expect, it, vi } from 'vitest';
import { useRedis } from '../../../../test/support/redis.js';
import type { JournalEntry } from '../context/run-services.js';
import { AttemptSupersededError } from '../errors/run-errors.js';
import { RedisRunJournal } from '../journal/redis-run-journal.js';
import { runKeys } from '../keys.js';
import { RedisRunRecords } from '../runs/redis-run-records.js';
import { RunWriteBatch, type WrittenEvents } from './run-write-batch.js';

const fixture = useRedis(import.meta.filename);
const records = () => new RedisRunRecords({ redis: fixture.redis, prefix: fixture.prefix });
const entry = (value: unknown): JournalEntry => ({
  kind: 'model-turn',
  fingerprint: 'm',
  outcome: { ok: true, value },
  at: 1,
});
const event = (note: string) => JSON.stringify({ type: 'progress', at: 1, callPath: 'root', data: { note } });

/** A started run with a batch and a journal writing through it for `attempt`. */
async function startedRun(attempt = randomUUID()) {
  const runId = randomUUID();
  await records().create({ runId, agentId: 'a' });
  await records().start({ runId, agentId: 'a', attempt });
  return { runId, ...writers(runId, attempt) };
}

function writers(runId: string, attempt: string, onSuperseded?: () => void, written?: WrittenEvents) {
  const batch = new RunWriteBatch({
    redis: fixture.redis,
    prefix: fixture.prefix,
    runId,
    attempt,
    maxLength: 1000,
    ...(onSuperseded && { onSuperseded }),
    ...(written && { written }),
  });
  const journal = new RedisRunJournal({
    redis: fixture.redis,
    prefix: fixture.prefix,
    runId,
    attempt,
    batch,
  });
  return { batch, journal };
}

async function streamOf(runId: string): Promise<string[]> {
  const entries = await fixture.redis.xrange(runKeys(fixture.prefix, runId).events, '-', '+');
  return entries.map(([, fields]) => JSON.parse(fields[1] ?? '{}').data?.note);
}

describe('RunWriteBatch', () => {
  it("sends a step's records and the events around them in one script call, events in emit order", async () => {
    const { runId, batch, journal } = await startedRun();
    const calls = vi.spyOn(fixture.redis, 'sendCommand');
    try {
      batch.event(event('before'));
      const deferred = journal.record('g0/model:0', entry('answer'), { deferred: true });
      batch.event(event('after the turn'));
      const durable = journal.record('g0/tool:0', entry('result'));
      batch.event(event('after the tool'));
      await Promise.all([deferred, durable]);
      expect(calls.mock.calls.filter(([command]) => command.name === 'evalsha')).toHaveLength(1);
    } finally {
      calls.mockRestore();
    }
    expect(await streamOf(runId)).toEqual(['before', 'after the turn', 'after the tool']);
    expect([...(await journal.load()).keys()].sort()).toEqual(['g0/model:0', 'g0/tool:0']);
    expect(batch.written()?.texts).toHaveLength(3);
  });

  it('keeps a deferred record out of Redis until the next write, and settle writes it', async () => {
    const { runId, batch, journal } = await startedRun();
    batch.hold();
    await journal.record('g0/model:0', entry('answer'), { deferred: true });
    batch.event(event('turn ended'));
    await new Promise((resolve) => setImmediate(resolve));
    // Held (as at a run's end): nothing was written by itself.
    expect(await fixture.redis.hlen(runKeys(fixture.prefix, runId).journal)).toBe(0);
    await journal.settle();
    expect([...(await journal.load()).keys()]).toEqual(['g0/model:0']);
    expect(await streamOf(runId)).toEqual(['turn ended']);
  });

  it('writes a deferred record with the events of the next turn of the event loop', async () => {
    const { runId, batch, journal } = await startedRun();
    await journal.record('g0/model:0', entry('answer'), { deferred: true });
    batch.event(event('turn ended'));
    await new Promise((resolve) => setImmediate(resolve));
    await batch.flush();
    expect([...(await journal.load()).keys()]).toEqual(['g0/model:0']);
    expect(await streamOf(runId)).toEqual(['turn ended']);
  });

  it('hands what waits to the run end, which records and appends it in its own script', async () => {
    const attempt = randomUUID();
    const { runId, batch, journal } = await startedRun(attempt);
    batch.event(event('first'));
    await batch.flush();
    batch.hold();
    await journal.record('g0/model:0', entry('answer'), { deferred: true });
    batch.event(event('turn ended'));
    const pending = await batch.drain();
    expect(pending.records).toEqual(['g0/model:0', JSON.stringify(entry('answer'))]);
    expect(await batch.drain()).toEqual({ records: [], events: [] });
    const ending = { status: 'succeeded' as const, output: 'answer', usage: emptyUsage(), modelCalls: 1 };
    const ended = await records().finish(
      runId,
      'root/agent:a:0',
      ending,
      undefined,
      attempt,
      pending.events,
      batch.written(),
      true,
      pending.records,
    );
    expect(ended).toBe(true);
    expect((await journal.load()).get('g0/model:0')).toEqual(entry('answer'));
    const events = await records().compactedEvents(runId);
    expect(events?.map((streamed) => streamed.type)).toEqual(['progress', 'progress', 'run-end']);
  });

  it("hands what waits to the suspension's script without waiting for a write in flight, knows its ids when none was, and ends the hold", async () => {
    const attempt = randomUUID();
    const { runId, batch, journal } = await startedRun(attempt);
    const suspension = { usage: emptyUsage(), modelCalls: 0 };
    batch.event(event('first'));
    await batch.flush();
    await journal.record('g0/model:0', entry('answer'), { deferred: true });
    batch.event(event('suspended'));
    batch.hold();
    const pending = await batch.handOver();
    expect(pending.records).toEqual(['g0/model:0', JSON.stringify(entry('answer'))]);
    expect(pending.events).toEqual([event('suspended')]);
    // Nothing deferred is left to settle, and nothing to hand over twice.
    await batch.settle();
    expect((await batch.handOver()).events).toEqual([]);
    expect(await records().suspend(runId, suspension, undefined, attempt, pending)).toBe(true);
    expect(await streamOf(runId)).toEqual(['first', 'suspended']);
    const ids = (await fixture.redis.xrange(runKeys(fixture.prefix, runId).events, '-', '+')).map(
      ([id]) => id,
    );
    expect(batch.written()?.ids).toEqual(ids);
    // The hold ended: the next execution's events go on their own.
    batch.event(event('resumed'));
    await vi.waitFor(async () => expect(await streamOf(runId)).toEqual(['first', 'suspended', 'resumed']));

    // A write in flight: sent first (same connection), its reply (and ids) come first too.
    const other = await startedRun(attempt);
    other.batch.event(event('in flight'));
    const flushing = other.batch.flush();
    await Promise.resolve();
    other.batch.event(event('suspended'));
    const handed = await other.batch.handOver();
    expect(handed.events).toEqual([event('suspended')]);
    expect(await records().suspend(other.runId, suspension, undefined, attempt, handed)).toBe(true);
    await flushing;
    expect(await streamOf(other.runId)).toEqual(['in flight', 'suspended']);
    const otherIds = (await fixture.redis.xrange(runKeys(fixture.prefix, other.runId).events, '-', '+')).map(
      ([id]) => id,
    );
    expect(other.batch.written()).toEqual({ texts: [event('in flight'), event('suspended')], ids: otherIds });
  });

  it('does not know what it wrote while handed-over events wait for their ids, nor when they never get them', async () => {
    const attempt = randomUUID();
    const { runId, batch } = await startedRun(attempt);
    batch.event(event('suspended'));
    const handed = await batch.handOver();
    expect(batch.written()).toBeUndefined();
    // The run ended elsewhere (a cancel): the suspension writes no event and gives no ids.
    await records().finish(runId, 'root', { status: 'cancelled', usage: emptyUsage(), modelCalls: 0 });
    expect(
      await records().suspend(runId, { usage: emptyUsage(), modelCalls: 0 }, undefined, attempt, handed),
    ).toBe(false);
    expect(batch.written()).toBeUndefined();
  });

  it('starts out knowing the events an earlier execution wrote, and adds its own after them', async () => {
    const attempt = randomUUID();
    const { runId } = await startedRun(attempt);
    const earlier = { texts: [event('earlier')], ids: ['1-0'] };
    const { batch } = writers(runId, attempt, undefined, earlier);
    batch.event(event('now'));
    await batch.flush();
    const ids = (await fixture.redis.xrange(runKeys(fixture.prefix, runId).events, '-', '+')).map(
      ([id]) => id,
    );
    expect(batch.written()).toEqual({ texts: [event('earlier'), event('now')], ids: ['1-0', ...ids] });
    // Copied: the earlier execution's arrays are left as they were.
    expect(earlier).toEqual({ texts: [event('earlier')], ids: ['1-0'] });
  });

  it('records the first write of a position only, deferred or not', async () => {
    const { journal } = await startedRun();
    await journal.record('g0/model:0', entry('first'));
    await journal.record('g0/model:0', entry('second'), { deferred: true });
    await journal.settle();
    expect((await journal.load()).get('g0/model:0')).toEqual(entry('first'));
  });

  it('writes nothing for a superseded attempt: settle throws, and the run end gets nothing', async () => {
    const old = randomUUID();
    const { runId } = await startedRun(old);
    await records().start({ runId, agentId: 'a', attempt: randomUUID() });
    let superseded = 0;
    const { batch, journal } = writers(runId, old, () => superseded++);
    await journal.record('g0/model:0', entry('stale'), { deferred: true });
    batch.event(event('stale'));
    await expect(journal.settle()).rejects.toSatisfy(AttemptSupersededError.is);
    await expect(journal.record('g0/tool:0', entry('stale'))).rejects.toSatisfy(AttemptSupersededError.is);
    expect(await batch.drain()).toEqual({ records: [], events: [] });
    expect(superseded).toBe(1);
    expect(await fixture.redis.hlen(runKeys(fixture.prefix, runId).journal)).toBe(0);
    expect(await streamOf(runId)).toEqual([]);
  });

  it('without an attempt (not fenced): records alone, events with them, and no events once the run ended', async () => {
    const { runId } = await startedRun();
    const unfenced = () =>
      new RunWriteBatch({ redis: fixture.redis, prefix: fixture.prefix, runId, maxLength: 1000 });
    const journal = new RedisRunJournal({
      redis: fixture.redis,
      prefix: fixture.prefix,
      runId,
      batch: unfenced(),
    });
    await journal.record('g0/tool:0', entry('alone'));
    const batch = unfenced();
    batch.event(event('first'));
    await batch.record('g0/tool:1', JSON.stringify(entry('with events')), false);
    expect(await streamOf(runId)).toEqual(['first']);
    await records().finish(runId, 'root/agent:a:0', { status: 'failed', usage: emptyUsage(), modelCalls: 0 });
    batch.event(event('late'));
    await batch.record('g0/tool:2', JSON.stringify(entry('late')), false);
    expect([...(await journal.load()).keys()].sort()).toEqual(['g0/tool:0', 'g0/tool:1', 'g0/tool:2']);
    expect((await streamOf(runId)).filter((note) => note !== undefined)).toEqual(['first']);
  });

  it("drops the events of a run that has ended but records its journal entries (record-journal's rule)", async () => {
    const { runId, batch, journal } = await startedRun();
    const ending = { status: 'cancelled' as const, usage: emptyUsage(), modelCalls: 0 };
    await records().finish(runId, 'root/agent:a:0', ending);
    batch.event(event('late'));
    await journal.record('g0/tool:0', entry('late'));
    expect([...(await journal.load()).keys()]).toEqual(['g0/tool:0']);
    expect((await streamOf(runId)).filter((note) => note === 'late')).toEqual([]);
  });
});
