import { randomUUID } from 'node:crypto';
import { emptyUsage } from '@flotilla/ir';
import { describe, expect, it, vi } from 'vitest';
import { useRedis } from '../../../../test/support/redis.js';
import { AttemptSupersededError } from '../errors/run-errors.js';
import { RedisRunEventSink } from '../events/redis-run-event-sink.js';
import { parseStreamEntries } from '../events/redis-run-event-stream.js';
import type { RunEvent } from '../events/run-event.js';
import { encodeRunTimeline } from '../events/run-timeline.js';
import { RedisRunJournal } from '../journal/redis-run-journal.js';
import { runKeys } from '../keys.js';
import { compactEventsScript } from './lua/compact-events-2.lua.js';
import { COMPACTED_STREAM_GRACE_MS, RedisRunRecords } from './redis-run-records.js';

const fixture = useRedis(import.meta.filename);
const records = () =>
  new RedisRunRecords({
    redis: fixture.redis,
    prefix: fixture.prefix,
    retention: { recordSeconds: 600, journalSeconds: 60 },
  });
const usage = { promptTokens: 3, completionTokens: 2, totalTokens: 5 };

describe('RedisRunRecords', () => {
  it('creates a queued record once per run id', async () => {
    const runId = randomUUID();
    const run = { runId, agentId: 'a', conversationId: 'c1', submissionHash: 'h1' };
    expect(await records().create(run)).toBe('created');
    expect(await records().create(run)).toBe('exists');
    expect(await records().create({ runId, agentId: 'other', submissionHash: 'h2' })).toBe('conflict');
    expect(await records().get(runId)).toMatchObject({
      runId,
      agentId: 'a',
      status: 'queued',
      conversationId: 'c1',
      attempts: 0,
    });
  });

  it('stores every field a submit, a schedule and a child hand over, and none left empty (one HSET)', async () => {
    const root = randomUUID();
    await records().create({
      runId: root,
      agentId: 'a',
      tenant: 't1',
      submissionHash: 'h',
      scheduleId: 's1',
    });
    const child = randomUUID();
    await records().create({
      runId: child,
      agentId: 'b',
      parentRunId: root,
      rootRunId: root,
      callPath: 'root/agent:a:0/agent:b:1',
      fingerprint: 'f',
      pinnedBuild: 'build-7',
    });
    const bare = randomUUID();
    await records().create({ runId: bare, agentId: 'c', parentRunId: root, pinnedBuild: '' });
    const stored = async (runId: string) => {
      const { createdAt, ...fields } = await fixture.redis.hgetall(runKeys(fixture.prefix, runId).record);
      expect(Number(createdAt)).toBeGreaterThan(0);
      return fields;
    };
    const queued = { status: 'queued', attempts: '0', modelCalls: '0' };
    expect(await stored(root)).toEqual({
      ...queued,
      runId: root,
      agentId: 'a',
      tenant: 't1',
      submission: 'h',
      scheduleId: 's1',
    });
    expect(await stored(child)).toEqual({
      ...queued,
      runId: child,
      agentId: 'b',
      parentRunId: root,
      rootRunId: root,
      callPath: 'root/agent:a:0/agent:b:1',
      fingerprint: 'f',
      pinnedBuild: 'build-7',
    });
    // A child's parent fields are always written (as create-run-1 did); an empty build is not.
    expect(await stored(bare)).toEqual({
      ...queued,
      runId: bare,
      agentId: 'c',
      parentRunId: root,
      rootRunId: '',
      callPath: '',
      fingerprint: '',
    });
  });

  it('counts starts and keeps the first start time', async () => {
    const runId = randomUUID();
    await records().create({ runId, agentId: 'a' });
    expect(await records().start({ runId, agentId: 'a' })).toMatchObject({ started: true, attempt: 1 });
    const firstStart = (await records().get(runId))?.startedAt;
    expect(await records().start({ runId, agentId: 'a' })).toMatchObject({ started: true, attempt: 2 });
    expect(await records().get(runId)).toMatchObject({
      status: 'running',
      startedAt: firstStart,
      attempts: 2,
    });
  });

  it("creates a missing record at start, keeps the first worker's build, and a resume from waiting is no new attempt", async () => {
    const runId = randomUUID();
    // A job added without the client has no record: the start makes one.
    expect(await records().start({ runId, agentId: 'a', buildId: 'b1' })).toMatchObject({
      started: true,
      attempt: 1,
      totals: { modelCalls: 0 },
    });
    const first = await records().get(runId);
    expect(first).toMatchObject({
      runId,
      agentId: 'a',
      status: 'running',
      attempts: 1,
      buildId: 'b1',
      modelCalls: 0,
    });
    expect(first?.startedAt).toBeGreaterThan(0);
    expect(await records().start({ runId, agentId: 'a', buildId: 'b2' })).toMatchObject({ attempt: 2 });
    // What a park leaves on the record (status waiting, what it waits for): cleared at the resume.
    const { record } = runKeys(fixture.prefix, runId);
    await fixture.redis.hset(record, 'status', 'waiting', 'waitingFor', '{"kind":"signal"}', 'waits', '[]');
    expect(await records().start({ runId, agentId: 'a', buildId: 'b2' })).toMatchObject({ attempt: 2 });
    expect(await fixture.redis.hmget(record, 'status', 'waitingFor', 'waits', 'buildId', 'attempts')).toEqual(
      ['running', null, null, 'b1', '2'],
    );
    expect((await records().get(runId))?.startedAt).toBe(first?.startedAt);
  });

  it('reads the wake-ups and the cancel flag in the start script', async () => {
    const runId = randomUUID();
    await records().create({ runId, agentId: 'a' });
    expect(await records().start({ runId, agentId: 'a' })).toMatchObject({ wakes: 0, cancelled: false });
    await records().addWake(runId);
    await records().addWake(runId);
    await fixture.redis.set(runKeys(fixture.prefix, runId).cancel, '1');
    const started = await records().start({ runId, agentId: 'a' });
    expect(started).toMatchObject({ started: true, attempt: 2, wakes: 2, cancelled: true });
    expect(await records().wakes(runId)).toBe(2);
  });

  it("says whether a start is the run's first execution: not after another attempt, nor on a resume", async () => {
    const runId = randomUUID();
    const { record } = runKeys(fixture.prefix, runId);
    await records().create({ runId, agentId: 'a' });
    // Parked before it ever ran (queued, waiting for a gate): still its first execution.
    await fixture.redis.hset(record, 'waitingFor', '{"kind":"conversation"}');
    expect(await records().start({ runId, agentId: 'a' })).toMatchObject({ firstExecution: true });
    expect(await records().start({ runId, agentId: 'a' })).toMatchObject({ firstExecution: false });
    await fixture.redis.hset(record, 'status', 'waiting');
    expect(await records().start({ runId, agentId: 'a' })).toMatchObject({
      attempt: 2,
      firstExecution: false,
    });
    // A job added without the client: the start creates the record, and it is the first.
    const bare = randomUUID();
    expect(await records().start({ runId: bare, agentId: 'a' })).toMatchObject({ firstExecution: true });
  });

  it('reads the cancel flag of a first start with the journal and memory, whichever of them is there', async () => {
    const preload = { callPath: 'root', maxFields: 8 };
    const nothing = randomUUID();
    expect(await records().start({ runId: nothing, agentId: 'a', preload })).toMatchObject({
      cancelled: false,
      preloaded: { journal: { fields: {}, pendingSteps: null }, memory: {} },
    });
    const flagged = randomUUID();
    await fixture.redis.set(runKeys(fixture.prefix, flagged).cancel, '1');
    expect(await records().start({ runId: flagged, agentId: 'a', preload })).toMatchObject({
      cancelled: true,
      preloaded: { journal: { fields: {}, pendingSteps: null }, memory: {} },
    });
    const remembered = randomUUID();
    await fixture.redis.hset(runKeys(fixture.prefix, remembered).memoryOf('root'), 'k', '1');
    expect(await records().start({ runId: remembered, agentId: 'a', preload })).toMatchObject({
      cancelled: false,
      preloaded: { journal: { fields: {} }, memory: { k: '1' } },
    });
  });

  it('sends back the journal, pending steps and root memory from the start, up to the bound, and the journal loads what it read', async () => {
    const runId = randomUUID();
    const keys = runKeys(fixture.prefix, runId);
    const entry = { kind: 'memo', fingerprint: 'm', outcome: { ok: true, value: 1 }, at: 1 };
    await records().create({ runId, agentId: 'a' });
    // Nothing asked for: nothing read.
    expect(await records().start({ runId, agentId: 'a' })).toMatchObject({ started: true, preloaded: {} });
    const preload = { callPath: 'root', maxFields: 2 };
    expect(await records().start({ runId, agentId: 'a', preload })).toMatchObject({
      preloaded: { journal: { fields: {}, pendingSteps: null }, memory: {} },
    });
    await fixture.redis.hset(keys.journal, 'p1', JSON.stringify(entry), 'p2', JSON.stringify(entry));
    await fixture.redis.hset(keys.memoryOf('root'), 'k', '1', '__proto__', '2');
    expect(
      await records().suspend(runId, { usage, modelCalls: 0, suspended: { pendingSteps: ['root/p3'] } }),
    ).toBe(true);
    const started = await records().start({ runId, agentId: 'a', preload });
    if (!started.started) throw new Error('not started');
    const { journal, memory } = started.preloaded;
    expect(journal?.fields).toEqual({ p1: JSON.stringify(entry), p2: JSON.stringify(entry) });
    // A field named like a special property is an own one, as ioredis' hgetall makes it.
    expect(memory && Object.keys(memory).sort()).toEqual(['__proto__', 'k']);
    expect(memory && Object.getOwnPropertyDescriptor(memory, '__proto__')?.value).toBe('2');
    const loaded = await new RedisRunJournal({
      redis: fixture.redis,
      prefix: fixture.prefix,
      runId,
      preloaded: journal,
    }).load();
    expect([...loaded.keys()].sort()).toEqual(['p1', 'p2']);
    expect(loaded.pendingSteps).toEqual(new Set(['root/p3']));
    // Over the bound: not sent, the worker reads them itself.
    await fixture.redis.hset(keys.journal, 'p3', JSON.stringify(entry));
    await fixture.redis.hset(keys.memoryOf('root'), 'k2', '3');
    expect(await records().start({ runId, agentId: 'a', preload })).toMatchObject({
      started: true,
      preloaded: {},
    });
  });

  it('ends a run once: the first ending wins and writes one run-end event', async () => {
    const runId = randomUUID();
    await records().create({ runId, agentId: 'a' });
    await records().start({ runId, agentId: 'a' });
    const first = await records().finish(runId, 'root/agent:a:0', {
      status: 'succeeded',
      output: { answer: 42 },
      usage,
      modelCalls: 2,
    });
    const second = await records().finish(runId, 'root/agent:a:0', {
      status: 'cancelled',
      error: { name: 'AbortError', message: 'late' },
      usage: emptyUsage(),
      modelCalls: 0,
    });
    expect([first, second]).toEqual([true, false]);
    expect(await records().get(runId)).toMatchObject({
      status: 'succeeded',
      output: { answer: 42 },
      usage,
      modelCalls: 2,
    });
    // The stream was replaced by the compacted timeline, which holds the one run-end; the stream
    // itself only stays for a short grace (readers that just missed the timeline find run-end).
    const streamTtl = await fixture.redis.pttl(runKeys(fixture.prefix, runId).events);
    expect(streamTtl).toBeGreaterThan(0);
    expect(streamTtl).toBeLessThanOrEqual(COMPACTED_STREAM_GRACE_MS);
    const events = await records().compactedEvents(runId);
    expect(events).toHaveLength(1);
    expect(events?.[0]).toMatchObject({
      type: 'run-end',
      status: 'succeeded',
      output: { answer: 42 },
      runId,
      eventId: expect.stringMatching(/^\d+-\d+$/),
    });
    expect(await records().start({ runId, agentId: 'a' })).toEqual({ started: false, status: 'succeeded' });
  });

  it('keeps the error of a failed run and starts the retention clocks', async () => {
    const runId = randomUUID();
    const keys = runKeys(fixture.prefix, runId);
    await records().create({ runId, agentId: 'a' });
    await fixture.redis.hset(keys.journal, 'p', '{}');
    await records().finish(runId, 'root/agent:a:0', {
      status: 'failed',
      error: { name: 'ToolLoopExceededError', message: 'too many', data: { maxTurnSteps: 3 } },
      usage,
      modelCalls: 3,
    });
    expect((await records().get(runId))?.error).toEqual({
      name: 'ToolLoopExceededError',
      message: 'too many',
      data: { maxTurnSteps: 3 },
    });
    expect(await fixture.redis.ttl(keys.record)).toBeGreaterThan(60);
    expect(await fixture.redis.ttl(keys.timeline)).toBeGreaterThan(60);
    expect(await fixture.redis.ttl(keys.journal)).toBeLessThanOrEqual(60);
    expect(await fixture.redis.ttl(keys.journal)).toBeGreaterThan(0);
  });

  it('hands the totals of suspended executions to the resumed start, and ends with their sum', async () => {
    const runId = randomUUID();
    await records().create({ runId, agentId: 'a' });
    const first = await records().start({ runId, agentId: 'a' });
    expect(first).toMatchObject({ totals: { usage: emptyUsage(), modelCalls: 0 } });
    expect(await records().suspend(runId, { usage, modelCalls: 2 })).toBe(true);
    const resumed = await records().start({ runId, agentId: 'a' });
    if (!resumed.started) throw new Error('the resumed run did not start');
    expect(resumed.totals).toEqual({ usage, modelCalls: 2 });
    await records().finish(
      runId,
      'root/agent:a:0',
      { status: 'succeeded', usage, modelCalls: 1 },
      resumed.totals,
    );
    expect(await records().get(runId)).toMatchObject({
      usage: { promptTokens: 6, completionTokens: 4, totalTokens: 10 },
      modelCalls: 3,
    });
  });

  it('adds each suspension to the totals handed over by its start', async () => {
    const runId = randomUUID();
    await records().create({ runId, agentId: 'a' });
    for (let execution = 0; execution < 2; execution++) {
      const start = await records().start({ runId, agentId: 'a' });
      if (!start.started) throw new Error('the run did not start');
      expect(await records().suspend(runId, { usage, modelCalls: 2 }, start.totals)).toBe(true);
    }
    expect(await records().get(runId)).toMatchObject({ status: 'waiting', modelCalls: 4 });
  });

  it('stores the steps each suspension waited at on the record, replacing the previous ones, and the journal loads them', async () => {
    const runId = randomUUID();
    const journal = new RedisRunJournal({ redis: fixture.redis, prefix: fixture.prefix, runId });
    await records().create({ runId, agentId: 'a' });
    await records().start({ runId, agentId: 'a' });
    const first = ['root/agent:a:0/g0/agent:c:0', 'root/agent:a:0/g0/agent:c:1'];
    const waited = { usage, modelCalls: 0, suspended: { pendingSteps: first } };
    expect(await records().suspend(runId, waited)).toBe(true);
    const loaded = await journal.load();
    expect(loaded.size).toBe(0); // the pending steps are not entries a durable step could serve
    expect(loaded.pendingSteps).toEqual(new Set(first));
    // Not in the journal hash: a worker of an older runtime would take the field for a bad entry.
    expect(await fixture.redis.hlen(runKeys(fixture.prefix, runId).journal)).toBe(0);
    expect((await records().get(runId))?.status).toBe('waiting');
    await journal.record('root/agent:a:0/g0/agent:c:0', {
      kind: 'child',
      fingerprint: 'c',
      outcome: { ok: true, value: 1 },
      at: 1,
    });
    await records().start({ runId, agentId: 'a' });
    const second = { usage, modelCalls: 0, suspended: { pendingSteps: ['root/agent:a:0/g0/agent:c:1'] } };
    expect(await records().suspend(runId, second)).toBe(true);
    const reloaded = await journal.load();
    expect([...reloaded.keys()]).toEqual(['root/agent:a:0/g0/agent:c:0']);
    expect(reloaded.pendingSteps).toEqual(new Set(['root/agent:a:0/g0/agent:c:1']));
    await records().start({ runId, agentId: 'a' });
    expect(await records().suspend(runId, { usage, modelCalls: 0, suspended: { pendingSteps: [] } })).toBe(
      true,
    );
    expect((await journal.load()).pendingSteps).toBeUndefined();
  });

  it('writes no pending steps for a run that already ended', async () => {
    const runId = randomUUID();
    await records().create({ runId, agentId: 'a' });
    await records().start({ runId, agentId: 'a' });
    await records().finish(runId, 'root/agent:a:0', { status: 'cancelled', usage, modelCalls: 0 });
    const late = { usage, modelCalls: 0, suspended: { pendingSteps: ['root/agent:a:0/g0/agent:c:0'] } };
    expect(await records().suspend(runId, late)).toBe(false);
    expect(await fixture.redis.hexists(runKeys(fixture.prefix, runId).record, 'pendingSteps')).toBe(0);
  });

  it("writes the execution's unsent journal entries and events with the suspension; an ended run gets the entries only, a superseded attempt nothing", async () => {
    const entry = JSON.stringify({ kind: 'memo', fingerprint: 'm', outcome: { ok: true, value: 1 }, at: 1 });
    const event = JSON.stringify({ type: 'run-suspended', callPath: 'root', at: 1, pendingChildren: [] });
    const suspendWith = async (runId: string, attempt?: string) => {
      const written: string[][] = [];
      const writes = {
        records: ['root/p1', entry],
        events: [event],
        onEventsWritten: (ids: string[]) => written.push(ids),
      };
      return {
        suspended: await records().suspend(runId, { usage, modelCalls: 0 }, undefined, attempt, writes),
        written,
      };
    };
    const runId = randomUUID();
    const keys = runKeys(fixture.prefix, runId);
    await records().create({ runId, agentId: 'a' });
    await records().start({ runId, agentId: 'a', attempt: 't1' });
    const { suspended, written } = await suspendWith(runId, 't1');
    expect(suspended).toBe(true);
    const stream = await fixture.redis.xrange(keys.events, '-', '+');
    expect(stream.map(([id, fields]) => [id, fields[1]])).toEqual([[written[0]?.[0], event]]);
    expect(written).toHaveLength(1);
    expect(await fixture.redis.hget(keys.journal, 'root/p1')).toBe(entry);
    expect((await records().get(runId))?.status).toBe('waiting');
    // A newer attempt owns the run: nothing written.
    const other = randomUUID();
    const otherKeys = runKeys(fixture.prefix, other);
    await records().create({ runId: other, agentId: 'a' });
    await records().start({ runId: other, agentId: 'a', attempt: 't2' });
    await expect(suspendWith(other, 't1')).rejects.toSatisfy(AttemptSupersededError.is);
    expect(await fixture.redis.exists(otherKeys.journal, otherKeys.events)).toBe(0);
    // Ended (a cancel won): the entries are recorded, the event is not, the record stays ended.
    await records().finish(other, 'root/agent:a:0', { status: 'cancelled', usage, modelCalls: 0 });
    const length = await fixture.redis.xlen(otherKeys.events);
    expect(await suspendWith(other, 't2')).toEqual({ suspended: false, written: [] });
    expect(await fixture.redis.hget(otherKeys.journal, 'root/p1')).toBe(entry);
    expect(await fixture.redis.xlen(otherKeys.events)).toBe(length);
    expect((await records().get(other))?.status).toBe('cancelled');
  });

  it('returns undefined for a run that does not exist', async () => {
    expect(await records().get(randomUUID())).toBeUndefined();
  });

  describe('compaction in the finish script (the worker knows every event in the stream)', () => {
    const callPath = 'root/agent:a:0';
    const event = (type: string, fields: Record<string, unknown> = {}): RunEvent =>
      ({ type, runId: '', at: Date.now(), callPath, ...fields }) as unknown as RunEvent;

    /** A run with `written` events in its stream through a sink, which remembers them. */
    async function runWithEvents(written: RunEvent[]) {
      const runId = randomUUID();
      await records().create({ runId, agentId: 'a' });
      const started = await records().start({ runId, agentId: 'a', attempt: 't1' });
      if (!started.started) throw new Error('not started');
      const sink = new RedisRunEventSink({
        redis: fixture.redis,
        prefix: fixture.prefix,
        runId,
        attempt: 't1',
      });
      for (const item of written) sink.emit({ ...item, runId });
      await sink.flush();
      return { runId, sink };
    }

    /** A run whose stream holds a `run-start` its sink wrote, then a `reborn` another writer did. */
    async function runWithForeignEvent() {
      const run = await runWithEvents([event('run-start', { agentId: 'a', input: 1 })]);
      const other = new RedisRunEventSink({ redis: fixture.redis, prefix: fixture.prefix, runId: run.runId });
      other.emit({ ...event('reborn', { agentId: 'a', generation: 1 }), runId: run.runId });
      await other.flush();
      return run;
    }

    /** The timeline compact-events-2 would have stored: encoded from the stream (still in its grace). */
    async function timelineFromStream(runId: string): Promise<string> {
      const keys = runKeys(fixture.prefix, runId);
      const entries = (await fixture.redis.xrange(keys.events, '-', '+')) as [string, string[]][];
      const record = await records().get(runId);
      if (!record) throw new Error('no record');
      const outcome = { status: record.status, usage: record.usage, modelCalls: record.modelCalls } as const;
      return encodeRunTimeline(runId, parseStreamEntries(entries), {
        ...outcome,
        ...(record.status === 'succeeded' && { output: record.output }),
        ...(record.error && { error: record.error }),
      } as Parameters<typeof encodeRunTimeline>[2]);
    }

    const pending = (runId: string) => [
      JSON.stringify({ ...event('model-turn-end', { position: 'p1', turnIndex: 0, usage }), runId }),
      JSON.stringify({
        ...event('generation-end', { agentId: 'a', generation: 0, endReason: 'done' }),
        runId,
      }),
    ];

    it('stores the same timeline, byte for byte, as compacting the stream would', async () => {
      const { runId, sink } = await runWithEvents([
        event('run-start', { agentId: 'a', input: { q: 'hi' } }),
        event('generation-start', { agentId: 'a', generation: 0 }),
        event('model-turn-start', { position: 'p1', turnIndex: 0, modelId: 'm', provider: 'x' }),
      ]);
      const written = sink.written();
      expect(written?.ids).toHaveLength(3);
      const compactFromStream = vi.spyOn(compactEventsScript, 'run');
      const ending = { status: 'succeeded' as const, output: { answer: 42 }, usage, modelCalls: 1 };
      expect(await records().finish(runId, callPath, ending, undefined, 't1', pending(runId), written)).toBe(
        true,
      );
      // Compacted in the finish script: no second script, no stream read back.
      expect(compactFromStream).not.toHaveBeenCalled();
      compactFromStream.mockRestore();
      const stored = await fixture.redis.get(runKeys(fixture.prefix, runId).timeline);
      expect(stored).toBe(await timelineFromStream(runId));
      const streamTtl = await fixture.redis.pttl(runKeys(fixture.prefix, runId).events);
      expect(streamTtl).toBeGreaterThan(0);
      expect(streamTtl).toBeLessThanOrEqual(COMPACTED_STREAM_GRACE_MS);
      const events = await records().compactedEvents(runId);
      expect(events?.map((item) => item.type)).toEqual([
        'run-start',
        'generation-start',
        'model-turn-start',
        'model-turn-end',
        'generation-end',
        'run-end',
      ]);
      expect(events?.at(-1)).toMatchObject({ type: 'run-end', status: 'succeeded', output: { answer: 42 } });
    });

    it('stores it for a stream that held nothing before, and for a failed run', async () => {
      const { runId, sink } = await runWithEvents([]);
      const ending = { status: 'failed' as const, error: { name: 'E', message: 'm' }, usage, modelCalls: 1 };
      expect(
        await records().finish(runId, callPath, ending, undefined, 't1', pending(runId), sink.written()),
      ).toBe(true);
      expect(await fixture.redis.get(runKeys(fixture.prefix, runId).timeline)).toBe(
        await timelineFromStream(runId),
      );
      expect((await records().compactedEvents(runId))?.at(-1)).toMatchObject({
        status: 'failed',
        error: { name: 'E' },
      });
    });

    it("takes a first execution's stream for the events its worker wrote, without checking it", async () => {
      // Nothing else writes a first execution's stream; were it written anyway, the finish would
      // not look (the check of an execution that is not the first is the test below).
      const { runId, sink } = await runWithForeignEvent();
      const ending = { status: 'succeeded' as const, output: 1, usage, modelCalls: 1 };
      const compactFromStream = vi.spyOn(compactEventsScript, 'run');
      expect(
        await records().finish(runId, callPath, ending, undefined, 't1', [], sink.written(), true, [], true),
      ).toBe(true);
      expect(compactFromStream).not.toHaveBeenCalled();
      compactFromStream.mockRestore();
      expect((await records().compactedEvents(runId))?.map((item) => item.type)).toEqual([
        'run-start',
        'run-end',
      ]);
    });

    it('compacts from the stream when it may have been trimmed, first execution or not', async () => {
      const runId = randomUUID();
      const short = new RedisRunRecords({
        redis: fixture.redis,
        prefix: fixture.prefix,
        eventStreamMaxLength: 3,
      });
      await short.create({ runId, agentId: 'a' });
      await short.start({ runId, agentId: 'a', attempt: 't1' });
      const written = { texts: [], ids: [] };
      const ending = { status: 'succeeded' as const, output: 1, usage, modelCalls: 1 };
      const compactFromStream = vi.spyOn(compactEventsScript, 'run');
      expect(
        await short.finish(runId, callPath, ending, undefined, 't1', pending(runId), written, true, [], true),
      ).toBe(true);
      expect(compactFromStream).toHaveBeenCalledOnce();
      compactFromStream.mockRestore();
    });

    it('compacts from the stream when it holds an event the worker did not write', async () => {
      const { runId, sink } = await runWithForeignEvent();
      const ending = { status: 'succeeded' as const, output: 1, usage, modelCalls: 1 };
      const compactFromStream = vi.spyOn(compactEventsScript, 'run');
      expect(await records().finish(runId, callPath, ending, undefined, 't1', [], sink.written())).toBe(true);
      expect(compactFromStream).toHaveBeenCalledOnce();
      compactFromStream.mockRestore();
      expect(await fixture.redis.get(runKeys(fixture.prefix, runId).timeline)).toBe(
        await timelineFromStream(runId),
      );
      expect((await records().compactedEvents(runId))?.map((item) => item.type)).toEqual([
        'run-start',
        'reborn',
        'run-end',
      ]);
    });

    it("compacts from the stream when the worker's count and last id match but an entry was replaced", async () => {
      const { runId, sink } = await runWithEvents([event('run-start', { agentId: 'a', input: 1 })]);
      const keys = runKeys(fixture.prefix, runId);
      const [firstId] = sink.written()?.ids ?? [];
      // Another writer's event lands between the worker's, and one of the worker's is deleted:
      // same length, same last id (finish-run-8's XLEN + XREVRANGE took the stream for the worker's).
      const other = new RedisRunEventSink({ redis: fixture.redis, prefix: fixture.prefix, runId });
      other.emit({ ...event('reborn', { agentId: 'a', generation: 1 }), runId });
      await other.flush();
      sink.emit({ ...event('generation-start', { agentId: 'a', generation: 0 }), runId });
      await sink.flush();
      await fixture.redis.xdel(keys.events, firstId ?? '');
      const written = sink.written();
      expect(written?.ids).toHaveLength(2);
      const compactFromStream = vi.spyOn(compactEventsScript, 'run');
      const ending = { status: 'succeeded' as const, output: 1, usage, modelCalls: 1 };
      expect(await records().finish(runId, callPath, ending, undefined, 't1', [], written)).toBe(true);
      expect(compactFromStream).toHaveBeenCalledOnce();
      compactFromStream.mockRestore();
      expect((await records().compactedEvents(runId))?.map((item) => item.type)).toEqual([
        'reborn',
        'generation-start',
        'run-end',
      ]);
    });

    it('ends a suspended run with its output in the record and its wait fields gone', async () => {
      const runId = randomUUID();
      await records().create({ runId, agentId: 'a' });
      await records().start({ runId, agentId: 'a' });
      const suspended = {
        usage,
        modelCalls: 0,
        suspended: { pendingSteps: ['root/agent:a:0/g0/agent:c:0'] },
      };
      expect(await records().suspend(runId, suspended)).toBe(true);
      const keys = runKeys(fixture.prefix, runId);
      expect(await fixture.redis.hexists(keys.record, 'pendingSteps')).toBe(1);
      await records().start({ runId, agentId: 'a' });
      const ending = { status: 'succeeded' as const, output: { answer: 42 }, usage, modelCalls: 1 };
      expect(await records().finish(runId, callPath, ending)).toBe(true);
      const fields = await fixture.redis.hgetall(keys.record);
      expect(fields).not.toHaveProperty('pendingSteps');
      expect(fields).not.toHaveProperty('waitingFor');
      expect(fields).not.toHaveProperty('waits');
      expect(await records().get(runId)).toMatchObject({ status: 'succeeded', output: { answer: 42 } });
    });

    it('a sink forgets what it wrote once a write is refused', async () => {
      const { runId, sink } = await runWithEvents([event('run-start', { agentId: 'a', input: 1 })]);
      await records().finish(runId, callPath, { status: 'cancelled', usage, modelCalls: 0 });
      sink.emit({ ...event('reborn', { agentId: 'a', generation: 1 }), runId });
      await sink.flush();
      expect(sink.written()).toBeUndefined();
    });
  });
});
