import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useRedis } from '../../../../test/support/redis.js';
import type { JournalEntry } from '../context/run-services.js';
import { JournalCorruptedError } from '../errors/run-errors.js';
import { runKeys } from '../keys.js';
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

  it('keeps the first write at a position when two workers race', async () => {
    const runId = randomUUID();
    await Promise.all([
      journalOf(runId).record('p', entry('first')),
      journalOf(runId).record('p', entry('second')),
    ]);
    await journalOf(runId).record('p', entry('late'));
    expect((await journalOf(runId).load()).get('p')?.outcome).toEqual({ ok: true, value: 'first' });
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
