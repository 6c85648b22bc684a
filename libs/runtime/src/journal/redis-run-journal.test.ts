import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { useRedis } from '../../../../test/support/redis.js';
import type { JournalEntry } from '../context/run-services.js';
import { JournalCorruptedError } from '../errors/run-errors.js';
import { runKeys } from '../keys.js';
import { PENDING_STEPS_FIELD } from '../runs/pending-steps.js';
import { RedisRunJournal } from './redis-run-journal.js';

const fixture = useRedis(import.meta.filename);
const journalOf = (runId: string) =>
  new RedisRunJournal({ redis: fixture.redis, prefix: fixture.prefix, runId });
const entry = (value: unknown): JournalEntry => ({
  kind: 'tool',
  fingerprint: 'add:{"a":1}',
  outcome: { ok: true, value },
  at: 1,
});

describe('RedisRunJournal', () => {
  it('sends the records of one tick in one script call, each at its position, the first write winning', async () => {
    const journal = journalOf(randomUUID());
    const calls = vi.spyOn(fixture.redis, 'sendCommand');
    try {
      await Promise.all([
        journal.record('root/g0/agent:a:0', entry('a')),
        journal.record('root/g0/agent:b:1', entry('b')),
        journal.record('root/g0/agent:a:0', entry('a again')),
      ]);
      // A command sent before the connection is ready is sent again from the offline queue: once.
      const scripts = new Set(
        calls.mock.calls.map(([command]) => command).filter((c) => c.name === 'evalsha'),
      );
      expect(scripts.size).toBe(1);
    } finally {
      calls.mockRestore();
    }
    const loaded = await journal.load();
    expect(loaded.get('root/g0/agent:a:0')).toEqual(entry('a'));
    expect(loaded.get('root/g0/agent:b:1')).toEqual(entry('b'));
    // A later tick is a call of its own, and still cannot overwrite.
    await journal.record('root/g0/agent:b:1', entry('b again'));
    expect((await journal.load()).get('root/g0/agent:b:1')).toEqual(entry('b'));
  });

  it('loads every recorded entry by position', async () => {
    const journal = journalOf(randomUUID());
    await journal.record('root/g0/tool:0', entry(1));
    await journal.record('root/g0/model:1', {
      kind: 'model-turn',
      fingerprint: 'm',
      outcome: { ok: false, error: { name: 'ModelCallError', message: 'x', data: { status: 500 } } },
      at: 2,
    });
    const loaded = await journal.load();
    expect([...loaded.keys()].sort()).toEqual(['root/g0/model:1', 'root/g0/tool:0']);
    expect(loaded.get('root/g0/tool:0')).toEqual(entry(1));
  });

  it('keeps the first write at each position when two workers race on their own connections', async () => {
    const runId = randomUUID();
    // Two workers: two connections, so their HSETNX commands really interleave in Redis.
    const workerA = new RedisRunJournal({ redis: fixture.connect(), prefix: fixture.prefix, runId });
    const workerB = new RedisRunJournal({ redis: fixture.connect(), prefix: fixture.prefix, runId });
    const positions = Array.from({ length: 50 }, (_, index) => `root/g0/tool:${index}`);
    await Promise.all(
      positions.flatMap((position) => [
        workerA.record(position, entry(`A ${position}`)),
        workerB.record(position, entry(`B ${position}`)),
      ]),
    );
    const seenByA = await workerA.load();
    const seenByB = await workerB.load();
    expect(seenByB).toEqual(seenByA);
    expect([...seenByA.keys()].sort()).toEqual([...positions].sort());
    for (const position of positions)
      expect([
        { ok: true, value: `A ${position}` },
        { ok: true, value: `B ${position}` },
      ]).toContainEqual(seenByA.get(position)?.outcome);
    // A late write (the original worker waking up) changes nothing.
    await Promise.all(positions.map((position) => workerB.record(position, entry('late'))));
    expect(await workerA.load()).toEqual(seenByA);
  });

  it('loads a journal without pending steps (an older one) with none', async () => {
    const journal = journalOf(randomUUID());
    await journal.record('root/g0/tool:0', entry(1));
    expect((await journal.load()).pendingSteps).toBeUndefined();
  });

  it('fails the load with JournalCorruptedError when the pending steps are not a list of positions', async () => {
    for (const bad of ['not json', '["no slash"]', '{"a":1}', JSON.stringify([42])]) {
      const runId = randomUUID();
      await fixture.redis.hset(runKeys(fixture.prefix, runId).record, PENDING_STEPS_FIELD, bad);
      const error = await journalOf(runId)
        .load()
        .catch((caught: unknown) => caught);
      expect(JournalCorruptedError.is(error)).toBe(true);
      expect(error).toMatchObject({ runId, position: PENDING_STEPS_FIELD });
    }
  });

  it('fails the load with JournalCorruptedError naming the position of a bad entry', async () => {
    const runId = randomUUID();
    await fixture.redis.hset(runKeys(fixture.prefix, runId).journal, 'root/g0/tool:3', '{"kind":"tool"}');
    const error = await journalOf(runId)
      .load()
      .catch((caught: unknown) => caught);
    expect(JournalCorruptedError.is(error)).toBe(true);
    expect(error).toMatchObject({ runId, position: 'root/g0/tool:3' });
  });
});
