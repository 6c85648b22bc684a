/**
 * The conversation gate's scripts against a real Redis: the line of writers (submission order,
 * idempotent, onConflict), the lease (first in line only, replaced by a newer attempt) and the
 * fence it puts on appends (`append-conversation-10` refuses any writer that does not hold it),
 * the lease a submit gives a run alone in line for its first attempt (`register-writer-5`), and the read of the conversation an attempt that enters makes in the same call.
 */
import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { afterAll, describe, expect, it } from 'vitest';
import { monitoredCommands } from '../../../../test/support/monitored-commands.js';
import { useRedis } from '../../../../test/support/redis.js';
import { conversationGateKeys, conversationKeys } from '../keys.js';
import { RedisConversationStore } from '../store/redis-conversation-store.js';
import { ConversationGate } from './conversation-gate.js';

const fixture = useRedis(import.meta.filename);
let queue: Queue | undefined;
const ended = new Set<string>();

function gate(): ConversationGate {
  queue ??= new Queue('gate-test', { connection: fixture.redis, prefix: fixture.prefix });
  return new ConversationGate({
    redis: fixture.redis,
    prefix: fixture.prefix,
    findJob: async (runId: string) => (await queue?.getJob(runId)) ?? undefined,
    hasEnded: async (runId) => ended.has(runId),
  });
}
const store = () => new RedisConversationStore({ redis: fixture.redis, prefix: fixture.prefix });
const turn = (appendId: string, expectedVersion: number, holder?: { runId: string; attempt: string }) => ({
  expectedVersion,
  appendId,
  messages: [{ role: 'user' as const, content: appendId }],
  ...(holder ? { holder } : {}),
});

afterAll(async () => {
  await queue?.close();
});

describe('the line of writers', () => {
  it('lets in only the run first in line, in registration order, and the next once it leaves', async () => {
    const id = `c-${randomUUID()}`;
    for (const runId of ['r1', 'r2', 'r3']) await gate().register(id, runId, 'enqueue');
    expect(await gate().enter(id, 'r2', 'a')).toEqual({ entered: false, headRunId: 'r1' });
    expect(await gate().enter(id, 'r1', 'a')).toEqual({ entered: true });
    await gate().leave(id, 'r1');
    expect(await gate().enter(id, 'r3', 'a')).toEqual({ entered: false, headRunId: 'r2' });
    expect(await gate().enter(id, 'r2', 'a')).toEqual({ entered: true });
  });

  it('keeps the place of a run registered twice (a repeated submit)', async () => {
    const id = `c-${randomUUID()}`;
    expect(await gate().register(id, 'r1', 'enqueue')).toEqual({ kind: 'registered', ahead: [] });
    await gate().register(id, 'r2', 'enqueue');
    expect(await gate().register(id, 'r1', 'enqueue')).toEqual({ kind: 'already' });
    expect(await gate().isFirst(id, 'r1')).toBe(true);
  });

  it('refuses a reject run while another holds or waits, and names the holder', async () => {
    const id = `c-${randomUUID()}`;
    expect(await gate().register(id, 'r1', 'reject')).toEqual({ kind: 'registered', ahead: [] });
    expect(await gate().register(id, 'r2', 'reject')).toEqual({ kind: 'busy', holderRunId: 'r1' });
    expect(await gate().enter(id, 'r2', 'a')).toEqual({ entered: false, headRunId: 'r1' });
  });

  it('lets a reject run in when the run ahead already ended but has not left the line yet', async () => {
    const id = `c-${randomUUID()}`;
    const [done, next] = [`done-${randomUUID()}`, `next-${randomUUID()}`];
    await gate().register(id, done, 'enqueue');
    ended.add(done); // its result is out; its worker leaves the line a moment later
    expect(await gate().register(id, next, 'reject')).toEqual({ kind: 'registered', ahead: [] });
    expect(await gate().enter(id, next, 'a')).toEqual({ entered: true });
  });

  it('returns every run ahead of an interrupting run, takes the waiting ones out of the line, and marks them for a rollback', async () => {
    const id = `c-${randomUUID()}`;
    await gate().register(id, 'r1', 'enqueue');
    await gate().register(id, 'r2', 'enqueue');
    expect(await gate().register(id, 'r3', 'interrupt')).toEqual({ kind: 'registered', ahead: ['r1', 'r2'] });
    expect(await gate().isRolledBack(id, 'r1')).toBe(false);
    // r2 left the line at once: when the head r1 ends, r3 is next, whatever the cancels are doing.
    await gate().leave(id, 'r1');
    expect(await gate().isFirst(id, 'r3')).toBe(true);
    expect(await gate().register(id, 'r4', 'rollback')).toEqual({ kind: 'registered', ahead: ['r3'] });
    expect(await gate().isRolledBack(id, 'r3')).toBe(true);
  });

  it('leaves for an ending attempt only while no newer attempt of the run holds the lease', async () => {
    const id = `c-${randomUUID()}`;
    await gate().register(id, 'r1', 'enqueue');
    await gate().register(id, 'r2', 'enqueue');
    await gate().enter(id, 'r1', 'attempt-1');
    // Taken over: the old attempt's leave (sent with its finish, which is refused) does nothing.
    await gate().enter(id, 'r1', 'attempt-2');
    await gate().leave(id, 'r1', 'attempt-1');
    expect(await gate().isFirst(id, 'r1')).toBe(true);
    expect(await gate().enter(id, 'r2', 'b')).toEqual({ entered: false, headRunId: 'r1' });
    await store().append(id, turn('t1', 0, { runId: 'r1', attempt: 'attempt-2' }));
    // The attempt that holds it leaves; the next run goes.
    await gate().leave(id, 'r1', 'attempt-2');
    expect(await gate().enter(id, 'r2', 'b')).toEqual({ entered: true });
    // An attempt of a run that already left (or another run's lease) leaves idempotently.
    await gate().leave(id, 'r1', 'attempt-1');
    expect(await gate().isFirst(id, 'r2')).toBe(true);
    await store().append(id, turn('t2', 1, { runId: 'r2', attempt: 'b' }));
  });

  it('takes in a run that is not in line: first on an empty line, else last', async () => {
    const id = `c-${randomUUID()}`;
    expect(await gate().enter(id, 'r1', 'a')).toEqual({ entered: true });
    expect(await gate().enter(id, 'r2', 'b')).toEqual({ entered: false, headRunId: 'r1' });
    await gate().register(id, 'r3', 'enqueue');
    await gate().leave(id, 'r1', 'a');
    expect(await gate().enter(id, 'r3', 'c')).toEqual({ entered: false, headRunId: 'r2' });
    expect(await gate().enter(id, 'r2', 'b')).toEqual({ entered: true });
  });

  it('deletes the lease and the counter with the last run to leave, and only then', async () => {
    const id = `c-${randomUUID()}`;
    const keys = conversationGateKeys(fixture.prefix, id);
    for (const runId of ['r1', 'r2', 'r3']) await gate().register(id, runId, 'enqueue');
    await gate().enter(id, 'r1', 'a');
    // A waiting run leaves (cancelled): the head keeps its place and its lease.
    await gate().leave(id, 'r2');
    expect(await fixture.redis.hget(keys.lease, 'runId')).toBe('r1');
    expect(await fixture.redis.zrange(keys.writers, 0, -1)).toEqual(['r1', 'r3']);
    await gate().leave(id, 'r1', 'a');
    expect(await fixture.redis.exists(keys.lease, keys.sequence)).toBe(1);
    expect(await gate().isFirst(id, 'r3')).toBe(true);
    await gate().enter(id, 'r3', 'c');
    await gate().leave(id, 'r3', 'c');
    expect(await fixture.redis.exists(keys.lease, keys.sequence, keys.writers)).toBe(0);
    // Again (idempotent): nothing to do.
    await gate().leave(id, 'r3', 'c');
    // A line started anew numbers from 1 again, in order.
    await gate().register(id, 'r3', 'enqueue');
    await gate().register(id, 'r3', 'enqueue');
    await gate().register(id, 'r4', 'enqueue');
    expect(await fixture.redis.zrange(keys.writers, 0, -1, 'WITHSCORES')).toEqual(['r3', '1', 'r4', '3']);
  });

  it('clears a head whose run ended without leaving (a lost wake-up), never a live one', async () => {
    const id = `c-${randomUUID()}`;
    await gate().register(id, 'live', 'enqueue');
    await gate().register(id, 'next', 'enqueue');
    expect(await gate().clearIfEnded(id, 'live')).toBe(false);
    ended.add('live');
    expect(await gate().clearIfEnded(id, 'live')).toBe(true);
    expect(await gate().enter(id, 'next', 'a')).toEqual({ entered: true });
  });
});

describe('the lease fences appends', () => {
  it('stores the holder attempt’s turn and refuses another run, a stale attempt and an outside writer', async () => {
    const id = `c-${randomUUID()}`;
    await gate().register(id, 'r1', 'enqueue');
    await gate().register(id, 'r2', 'enqueue');
    await gate().enter(id, 'r1', 'attempt-1');
    await store().append(id, turn('t1', 0, { runId: 'r1', attempt: 'attempt-1' }));

    const refused = (change: ReturnType<typeof turn>) => store().append(id, change);
    await expect(refused(turn('t2', 1, { runId: 'r2', attempt: 'x' }))).rejects.toMatchObject({
      name: 'ConversationLeaseLostError',
      holderRunId: 'r1',
    });
    await expect(refused(turn('t3', 1))).rejects.toMatchObject({ name: 'ConversationLeaseLostError' });
    // A takeover: a newer attempt of r1 enters; the older one can no longer write.
    await gate().enter(id, 'r1', 'attempt-2');
    await expect(refused(turn('t4', 1, { runId: 'r1', attempt: 'attempt-1' }))).rejects.toMatchObject({
      name: 'ConversationLeaseLostError',
    });
    await store().append(id, turn('t5', 1, { runId: 'r1', attempt: 'attempt-2' }));
    // Once r1 left, r2 holds nothing until it enters: its append is refused, then accepted.
    await gate().leave(id, 'r1');
    await expect(refused(turn('t6', 2, { runId: 'r2', attempt: 'b' }))).rejects.toMatchObject({
      name: 'ConversationLeaseLostError',
      holderRunId: undefined,
    });
    await gate().enter(id, 'r2', 'b');
    await store().append(id, turn('t7', 2, { runId: 'r2', attempt: 'b' }));
    const stored = await store().load(id);
    expect(stored?.messages.map((message) => message.content)).toEqual(['t1', 't5', 't7']);
  });

  it('lets a writer outside any run append while no run holds the conversation', async () => {
    const id = `c-${randomUUID()}`;
    await store().append(id, turn('t1', 0));
    expect((await store().load(id))?.header.version).toBe(1);
  });
});

describe('the lease a submit gives a run alone in line, for its first attempt (register-writer-5)', () => {
  it('is written only for an enqueue onto an empty line that asks for it, and says whether a conversation is stored', async () => {
    const id = `c-${randomUUID()}`;
    const keys = conversationGateKeys(fixture.prefix, id);
    // Not asked (a delayed submit): no lease.
    expect(await gate().register(id, 'r0', 'enqueue')).toEqual({ kind: 'registered', ahead: [] });
    expect(await fixture.redis.exists(keys.lease)).toBe(0);
    await gate().leave(id, 'r0');
    expect(await gate().register(id, 'r1', 'enqueue', { lease: true })).toEqual({
      kind: 'registered',
      ahead: [],
      leased: 'empty',
    });
    expect(await fixture.redis.hgetall(keys.lease)).toEqual({ runId: 'r1', attempt: '' });
    // Behind a run: no lease; a repeated submit: nothing changes.
    expect(await gate().register(id, 'r2', 'enqueue', { lease: true })).toEqual({
      kind: 'registered',
      ahead: [],
    });
    expect(await gate().register(id, 'r1', 'enqueue', { lease: true })).toEqual({ kind: 'already' });
    expect(await fixture.redis.hgetall(keys.lease)).toEqual({ runId: 'r1', attempt: '' });
    // A reject (interrupt, rollback) submit never takes it.
    await store().append(id, turn('t1', 0, { runId: 'r1', attempt: 'first' }));
    await gate().leave(id, 'r1', 'first');
    await gate().leave(id, 'r2');
    expect(await gate().register(id, 'r3', 'reject', { lease: true })).toEqual({
      kind: 'registered',
      ahead: [],
    });
    await gate().leave(id, 'r3');
    // A stored conversation: the first attempt loads it itself.
    expect(await gate().register(id, 'r4', 'enqueue', { lease: true })).toMatchObject({ leased: 'stored' });
  });

  it('is not written when a run is in line without the counter (put there by hand): the run waits', async () => {
    const id = `c-${randomUUID()}`;
    const keys = conversationGateKeys(fixture.prefix, id);
    await fixture.redis.zadd(keys.writers, 0, 'ghost');
    expect(await gate().register(id, 'r1', 'enqueue', { lease: true })).toEqual({
      kind: 'registered',
      ahead: [],
    });
    expect(await fixture.redis.exists(keys.lease)).toBe(0);
    expect(await gate().enter(id, 'r1', 'a')).toEqual({ entered: false, headRunId: 'ghost' });
  });

  it('lets any attempt of the run append and leave until another attempt enters, then fences the first', async () => {
    const id = `c-${randomUUID()}`;
    const keys = conversationGateKeys(fixture.prefix, id);
    await gate().register(id, 'r1', 'enqueue', { lease: true });
    await gate().register(id, 'r2', 'enqueue', { lease: true });
    const refused = (change: ReturnType<typeof turn>) => store().append(id, change);
    // Another run, and a writer outside any run, are refused as under any lease.
    await expect(refused(turn('x', 0, { runId: 'r2', attempt: 'b' }))).rejects.toMatchObject({
      name: 'ConversationLeaseLostError',
      holderRunId: 'r1',
    });
    await expect(refused(turn('y', 0))).rejects.toMatchObject({ name: 'ConversationLeaseLostError' });
    // The first attempt appends without entering.
    await store().append(id, turn('t1', 0, { runId: 'r1', attempt: 'first' }));
    // Taken over: the new attempt enters (its token in the lease); the first can no longer write or leave.
    expect(await gate().enter(id, 'r1', 'second')).toEqual({ entered: true });
    await expect(refused(turn('t2', 1, { runId: 'r1', attempt: 'first' }))).rejects.toMatchObject({
      name: 'ConversationLeaseLostError',
    });
    await gate().leave(id, 'r1', 'first');
    expect(await fixture.redis.hgetall(keys.lease)).toEqual({ runId: 'r1', attempt: 'second' });
    await store().append(id, turn('t3', 1, { runId: 'r1', attempt: 'second' }));
    await gate().leave(id, 'r1', 'second');
    expect(await gate().enter(id, 'r2', 'b')).toEqual({ entered: true });
    expect((await store().load(id))?.messages.map((message) => message.content)).toEqual(['t1', 't3']);
  });

  it('is left by the first attempt that never entered, and the next run goes', async () => {
    const id = `c-${randomUUID()}`;
    const keys = conversationGateKeys(fixture.prefix, id);
    await gate().register(id, 'r1', 'enqueue', { lease: true });
    await gate().register(id, 'r2', 'enqueue', { lease: true });
    await gate().leave(id, 'r1', 'first');
    expect(await fixture.redis.exists(keys.lease)).toBe(0);
    expect(await gate().enter(id, 'r2', 'b')).toEqual({ entered: true });
    await gate().leave(id, 'r2', 'b');
    expect(await fixture.redis.exists(keys.lease, keys.sequence, keys.writers)).toBe(0);
  });
});

describe('the commands each script runs (MONITOR)', () => {
  /** The commands the scripts run inside Redis on `id`'s keys while `work` runs, by name. */
  async function luaCommands(id: string, work: () => Promise<void>): Promise<string[]> {
    const commands = await monitoredCommands(
      fixture.redis,
      ({ args, source }) => source === 'lua' && args.some((arg) => arg.includes(id)),
      work,
    );
    return commands.map(({ args }) => String(args[0]).toUpperCase());
  }

  /** Run `r1`'s attempt `a` appends the first turn (6 commands), then leaves (4): entered or leased at submit alike. */
  async function expectFirstTurnAppendedThenLeft(id: string): Promise<void> {
    const appended = luaCommands(id, async () => {
      await store().append(id, turn('t1', 0, { runId: 'r1', attempt: 'a' }));
    });
    expect(await appended).toEqual(['HMGET', 'HMGET', 'HSETNX', 'RPUSH', 'HSET', 'RPUSH']);
    expect(await luaCommands(id, () => gate().leave(id, 'r1', 'a'))).toEqual([
      'HMGET',
      'SREM',
      'ZRANGE',
      'DEL',
    ]);
  }

  it('registers, enters, appends the first turn and leaves with 2, 3, 6 and 4 commands', async () => {
    const id = `c-${randomUUID()}`;
    expect(await luaCommands(id, async () => void (await gate().register(id, 'r1', 'enqueue')))).toEqual([
      'INCR',
      'ZADD',
    ]);
    const entered = luaCommands(id, async () => void (await gate().enter(id, 'r1', 'a', 0)));
    expect(await entered).toEqual(['ZRANGE', 'HSET', 'HGETALL']);
    await expectFirstTurnAppendedThenLeft(id);
  });

  it('registers a run alone in line with its lease (5), appends its first turn without an enter (6), leaves (4)', async () => {
    const id = `c-${randomUUID()}`;
    const registered = luaCommands(
      id,
      async () => void (await gate().register(id, 'r1', 'enqueue', { lease: true })),
    );
    expect(await registered).toEqual(['INCR', 'ZADD', 'ZRANGE', 'HSET', 'EXISTS']);
    await expectFirstTurnAppendedThenLeft(id);
  });

  it('answers a replayed append (its version moved on) with one HEXISTS more, and writes nothing', async () => {
    const id = `c-${randomUUID()}`;
    const writer = store();
    await writer.append(id, turn('t1', 0));
    await writer.append(id, turn('t2', 1));
    const header = (await store().load(id))?.header;
    let replayed: unknown;
    const commands = await luaCommands(id, async () => {
      replayed = await writer.append(id, turn('t1', 0));
    });
    expect(commands).toEqual(['HMGET', 'HMGET', 'HEXISTS']);
    expect(replayed).toEqual(header);
    await expect(writer.append(id, turn('t3', 0))).rejects.toMatchObject({
      name: 'ConversationConflictError',
    });
  });
});

describe('entering with a read of the conversation', () => {
  const summarised = { turnsSummarised: 1, messagesSummarised: 2, tokensBefore: 100, tokensAfter: 10 };
  const provenance = { reason: 'compaction' as const, ...summarised };
  const holder = { runId: 'r1', attempt: 'a' };
  const user = (content: string) => ({ role: 'user' as const, content });

  for (const chunkBytes of [16_384, 0]) {
    it(`reads what a load of the latest version reads, only when it enters (chunkBytes ${chunkBytes})`, async () => {
      const id = `c-${randomUUID()}`;
      const writer = new RedisConversationStore({ redis: fixture.redis, prefix: fixture.prefix, chunkBytes });
      await gate().register(id, 'r1', 'enqueue');
      await gate().register(id, 'r2', 'enqueue');
      // Nothing stored yet: an empty read, which loads as no conversation.
      const empty = await gate().enter(id, 'r1', 'a', writer.latestReadFrom(id));
      expect(empty).toMatchObject({ entered: true, read: { from: 0, fields: {}, list: [] } });
      if (!empty.entered || !empty.read) throw new Error('not entered');
      expect(await writer.loadLatestRead(id, empty.read)).toBeUndefined();
      expect(writer.versionOfRead(id, empty.read)).toBe(0);

      const turns = [['a1', 'a2'], ['b1'], ['summary', 'b1'], ['c1']];
      for (const [index, messages] of turns.entries()) {
        await writer.append(id, {
          expectedVersion: index,
          appendId: `t${index}`,
          messages: (messages ?? []).map(user),
          holder,
          ...(index === 2 ? { base: provenance } : {}),
        });
      }
      // A reader that never saw the conversation reads the whole list; one that did, from its base.
      for (const reader of [
        new RedisConversationStore({ redis: fixture.redis, prefix: fixture.prefix, chunkBytes }),
        writer,
      ]) {
        await reader.load(id);
        const entry = await gate().enter(id, 'r1', 'a', reader.latestReadFrom(id));
        if (!entry.entered || !entry.read) throw new Error('not entered');
        expect(reader.versionOfRead(id, entry.read)).toBe(4);
        expect(await reader.loadLatestRead(id, entry.read)).toEqual(await store().load(id));
      }
      // A reader that remembers a later start than the version has (the conversation was
      // deleted and written anew) reads again from the version's own start.
      const stale = new RedisConversationStore({ redis: fixture.redis, prefix: fixture.prefix, chunkBytes });
      await stale.load(id);
      expect(stale.latestReadFrom(id)).toBeGreaterThan(0);
      await fixture.redis.del(...Object.values(conversationKeys(fixture.prefix, id)));
      await writer.append(id, { expectedVersion: 0, appendId: 'new', messages: [user('anew')], holder });
      const anew = await gate().enter(id, 'r1', 'a', stale.latestReadFrom(id));
      if (!anew.entered || !anew.read) throw new Error('not entered');
      expect((await stale.loadLatestRead(id, anew.read))?.messages).toEqual([user('anew')]);

      // A run that waits reads nothing.
      expect(await gate().enter(id, 'r2', 'b', writer.latestReadFrom(id))).toEqual({
        entered: false,
        headRunId: 'r1',
      });
    });
  }
});
