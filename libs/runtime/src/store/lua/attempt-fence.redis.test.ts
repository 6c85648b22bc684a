/**
 * The attempt fence in every script that writes a run's keys: once a newer attempt started the
 * run, each write of the older attempt is refused (and nothing of it reaches Redis), while the
 * current attempt's writes, and writes that carry no attempt (a cancel), go through.
 */
import { randomUUID } from 'node:crypto';
import { emptyUsage } from '@flotilla/ir';
import { describe, expect, it } from 'vitest';
import { useRedis } from '../../../../../test/support/redis.js';
import { AttemptSupersededError } from '../../errors/run-errors.js';
import { RedisRunEventSink } from '../../events/redis-run-event-sink.js';
import type { RunEvent } from '../../events/run-event.js';
import { RedisRunJournal } from '../../journal/redis-run-journal.js';
import { runKeys } from '../../keys.js';
import { RedisRunMemoryStore } from '../../memory/redis-run-memory-store.js';
import { RedisRunRecords } from '../../runs/redis-run-records.js';

const fixture = useRedis(import.meta.filename);
const records = () => new RedisRunRecords({ redis: fixture.redis, prefix: fixture.prefix });
const entry = { kind: 'memo', fingerprint: 'memo:k', outcome: { ok: true, value: 1 }, at: 0 } as const;
const ending = { status: 'succeeded', output: 'done', usage: emptyUsage(), modelCalls: 0 } as const;
const progress = (runId: string, note: string) =>
  ({ type: 'progress', runId, at: 0, callPath: 'root', data: { note } }) as unknown as RunEvent;

/** A run started by attempt `old`, then taken over by attempt `current`. */
async function supersededRun(): Promise<{ runId: string; old: string; current: string }> {
  const runId = randomUUID();
  const [old, current] = [randomUUID(), randomUUID()];
  await records().create({ runId, agentId: 'a' });
  await records().start({ runId, agentId: 'a', attempt: old });
  await records().start({ runId, agentId: 'a', attempt: current });
  return { runId, old, current };
}

const journalOf = (runId: string, attempt: string) =>
  new RedisRunJournal({ redis: fixture.redis, prefix: fixture.prefix, runId, attempt });
const memoryOf = (runId: string, attempt: string) =>
  new RedisRunMemoryStore({ redis: fixture.redis, prefix: fixture.prefix, runId, attempt });

describe('the attempt fence', () => {
  it("write-run-2 refuses a superseded attempt's journal records and records the current one's", async () => {
    const { runId, old, current } = await supersededRun();
    await expect(journalOf(runId, old).record('p1', entry)).rejects.toSatisfy(AttemptSupersededError.is);
    expect((await journalOf(runId, current).load()).size).toBe(0);
    await journalOf(runId, current).record('p1', entry);
    expect([...(await journalOf(runId, current).load()).keys()]).toEqual(['p1']);
    // Records sent together in one call are refused together.
    const stale = journalOf(runId, old);
    const refused = await Promise.allSettled([stale.record('p2', entry), stale.record('p3', entry)]);
    for (const outcome of refused) {
      expect(outcome.status).toBe('rejected');
      if (outcome.status === 'rejected') expect(AttemptSupersededError.is(outcome.reason)).toBe(true);
    }
    expect([...(await journalOf(runId, current).load()).keys()]).toEqual(['p1']);
  });

  it('write-memory-3 refuses set, unset and clear of a superseded attempt', async () => {
    const { runId, old, current } = await supersededRun();
    await memoryOf(runId, current).set('root', 'kept', 1);
    await expect(memoryOf(runId, old).set('root', 'k', 2)).rejects.toSatisfy(AttemptSupersededError.is);
    await expect(memoryOf(runId, old).set('root', 'kept', undefined)).rejects.toSatisfy(
      AttemptSupersededError.is,
    );
    const stale = memoryOf(runId, old);
    await stale.load('root');
    await expect(stale.clear('root')).rejects.toSatisfy(AttemptSupersededError.is);
    expect(await memoryOf(runId, current).load('root')).toEqual({ kept: 1 });
    await memoryOf(runId, current).clear('root');
    expect(await memoryOf(runId, current).load('root')).toEqual({});
  });

  it('suspend-run-3 and finish-run-12 refuse a superseded attempt; a cancel (no attempt) still ends the run', async () => {
    const { runId, old, current } = await supersededRun();
    await expect(records().suspend(runId, ending, undefined, old)).rejects.toSatisfy(
      AttemptSupersededError.is,
    );
    await expect(records().finish(runId, 'root', ending, undefined, old)).rejects.toSatisfy(
      AttemptSupersededError.is,
    );
    expect(await records().get(runId)).toMatchObject({ status: 'running' });
    expect(await records().suspend(runId, ending, undefined, current)).toBe(true);
    const cancelled = { status: 'cancelled', usage: emptyUsage(), modelCalls: 0 } as const;
    expect(await records().finish(runId, 'root', cancelled)).toBe(true);
    expect(await records().get(runId)).toMatchObject({ status: 'cancelled' });
  });

  it('finish-run-12 ends the run for the current attempt', async () => {
    const { runId, current } = await supersededRun();
    expect(await records().finish(runId, 'root', ending, undefined, current)).toBe(true);
    expect(await records().get(runId)).toMatchObject({ status: 'succeeded', output: 'done' });
  });

  it("finish-run-12 deletes memory and keeps the children set for the retention whoever ends the run; a superseded attempt's does not", async () => {
    const { redis } = fixture;
    const { runId, old, current } = await supersededRun();
    const keys = runKeys(fixture.prefix, runId);
    await memoryOf(runId, current).set('root', 'k', 1);
    await memoryOf(runId, current).set('root/agent:b:0', 'k', 2);
    await redis.sadd(keys.children, 'child-1');
    const memoryKeys = [keys.memoryIndex, keys.memoryOf('root'), keys.memoryOf('root/agent:b:0')];
    expect(await redis.exists(...memoryKeys)).toBe(3);
    // A superseded attempt is refused before any clean-up.
    await expect(
      records().finish(runId, 'root', ending, undefined, old, undefined, undefined, true),
    ).rejects.toSatisfy(AttemptSupersededError.is);
    expect(await redis.exists(...memoryKeys)).toBe(3);
    // A cancel (no attempt) ends the run and cleans up in the same script.
    const cancelled = { status: 'cancelled', usage: emptyUsage(), modelCalls: 0 } as const;
    expect(await records().finish(runId, 'root', cancelled)).toBe(true);
    expect(await redis.exists(...memoryKeys)).toBe(0);
    expect(await redis.smembers(keys.children)).toEqual(['child-1']);
    expect(await redis.ttl(keys.children)).toBeGreaterThan(0);
    // The attempt, still executing, writes memory and a journal entry after the cancel ended the
    // run; its own end cleans up all the same, and its journal expires.
    await memoryOf(runId, current).set('root', 'late', 3);
    await journalOf(runId, current).record('p1', entry);
    expect(await redis.ttl(keys.journal)).toBe(-1);
    expect(
      await records().finish(runId, 'root', ending, undefined, current, undefined, undefined, true),
    ).toBe(false);
    expect(await redis.exists(...memoryKeys)).toBe(0);
    expect(await redis.ttl(keys.journal)).toBeGreaterThan(0);
    expect(await records().get(runId)).toMatchObject({ status: 'cancelled' });
  });

  it('start-run-5 lets an attempt continue after its suspension only while it owns the run', async () => {
    const { runId, old, current } = await supersededRun();
    await expect(records().start({ runId, agentId: 'a', attempt: old, continuing: true })).rejects.toSatisfy(
      AttemptSupersededError.is,
    );
    expect(await records().start({ runId, agentId: 'a', attempt: current, continuing: true })).toMatchObject({
      started: true,
    });
    expect(await fixture.redis.hget(runKeys(fixture.prefix, runId).record, 'attempt')).toBe(current);
  });

  it('write-run-2 drops a superseded attempt’s events and says so once', async () => {
    const { runId, old, current } = await supersededRun();
    let superseded = 0;
    const sink = (attempt: string) =>
      new RedisRunEventSink({
        redis: fixture.redis,
        prefix: fixture.prefix,
        runId,
        attempt,
        onSuperseded: () => superseded++,
      });
    const stale = sink(old);
    stale.emit(progress(runId, 'stale 1'));
    await stale.flush();
    stale.emit(progress(runId, 'stale 2'));
    await stale.flush();
    const live = sink(current);
    live.emit(progress(runId, 'current'));
    await live.flush();
    const entries = await fixture.redis.xrange(runKeys(fixture.prefix, runId).events, '-', '+');
    expect(entries.map(([, fields]) => JSON.parse(fields[1] ?? '{}').data.note)).toEqual(['current']);
    expect(superseded).toBe(1);
  });

  it('lets every write through on a record without an attempt token (a run started by an older worker)', async () => {
    const runId = randomUUID();
    await records().create({ runId, agentId: 'a' });
    await journalOf(runId, randomUUID()).record('p1', entry);
    expect((await journalOf(runId, '').load()).size).toBe(1);
  });
});
