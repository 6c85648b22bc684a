/**
 * The fleet-wide count of waiting runs against a real Redis, through the record transitions
 * that set and clear `waitingFor` (park, markUnserved, markWaiting, a durable wait's suspend,
 * start, a cancel's finish), and its
 * repair: entries whose record no longer waits are pruned, entries written again meanwhile kept.
 * Reads raw keys to simulate a crash between a record write and its count write.
 */
import { randomUUID } from 'node:crypto';
import { emptyUsage } from '@flotilla/ir';
import { describe, expect, it } from 'vitest';
import { useRedis } from '../../../../test/support/redis.js';
import { runKeys, waitingRunsKeys } from '../keys.js';
import { RedisRunRecords } from '../runs/redis-run-records.js';
import { WaitingRunsReport } from '../runs/waiting-runs-report.js';

const fixture = useRedis(import.meta.filename);
const records = () => new RedisRunRecords({ redis: fixture.redis, prefix: fixture.prefix });

/** The waiting runs of `agentId` by kind (each test uses its own agent id). */
async function countsOf(agentId: string): Promise<Record<string, number>> {
  const counts = await records().waiting.counts();
  return Object.fromEntries(
    counts.filter((count) => count.agentId === agentId).map((count) => [count.kind, count.runs]),
  );
}

async function queuedRun(agentId: string): Promise<string> {
  const runId = `run-${randomUUID()}`;
  await records().create({ runId, agentId });
  return runId;
}

const cancelled = { status: 'cancelled' as const, usage: emptyUsage(), modelCalls: 0 };

describe('the count of waiting runs', () => {
  it('counts a parked run by its kind and agent until it starts, once however often it parks', async () => {
    const agentId = `agent-${randomUUID()}`;
    const [first, second] = [await queuedRun(agentId), await queuedRun(agentId)];
    const wait = { kind: 'conversation' as const, detail: 'c (after run x)' };
    expect(await records().park(first, wait)).toBe(true);
    expect(await records().park(first, wait)).toBe(true);
    expect(await records().park(second, wait)).toBe(true);
    expect(await countsOf(agentId)).toEqual({ conversation: 2 });
    await records().start({ runId: first, agentId, attempt: 'a1' });
    expect(await countsOf(agentId)).toEqual({ conversation: 1 });
    await records().start({ runId: second, agentId, attempt: 'a2' });
    expect(await countsOf(agentId)).toEqual({});
  });

  it('moves a run that waits for something else to that kind, and drops it when a cancel ends it', async () => {
    const agentId = `agent-${randomUUID()}`;
    const runId = await queuedRun(agentId);
    expect(await records().markUnserved(runId, agentId)).toBe(true);
    expect(await countsOf(agentId)).toEqual({ worker: 1 });
    await records().park(runId, { kind: 'conversation', detail: 'c' });
    expect(await countsOf(agentId)).toEqual({ conversation: 1 });
    expect(await records().finish(runId, 'root/agent:x:0', cancelled)).toBe(true);
    expect(await countsOf(agentId)).toEqual({});
  });

  it('counts a run suspended on a durable wait by its kind, until it starts or suspends on children only', async () => {
    const agentId = `agent-${randomUUID()}`;
    const runId = await queuedRun(agentId);
    await records().start({ runId, agentId, attempt: 'a1' });
    const approval = { waitingFor: { kind: 'approval' as const, detail: 'call c1 of tool pay' } };
    const suspended = { usage: emptyUsage(), modelCalls: 0, suspended: { waits: [approval] } };
    expect(await records().suspend(runId, suspended, undefined, 'a1')).toBe(true);
    expect(await countsOf(agentId)).toEqual({ approval: 1 });
    // The pruner sees a suspended (status waiting) run as still waiting: its entry stays.
    await records().waiting.prune({ currentWait: records().currentWait, minAgeMs: 0 });
    expect(await countsOf(agentId)).toEqual({ approval: 1 });
    await records().start({ runId, agentId, attempt: 'a1', continuing: true });
    expect(await countsOf(agentId)).toEqual({});
    expect(await records().suspend(runId, suspended, undefined, 'a1')).toBe(true);
    expect(await countsOf(agentId)).toEqual({ approval: 1 });
    // Suspended on child runs only: the record's waitingFor is cleared, and so is the count.
    expect(await records().suspend(runId, { usage: emptyUsage(), modelCalls: 0 }, undefined, 'a1')).toBe(
      true,
    );
    expect(await records().get(runId)).not.toHaveProperty('waitingFor');
    expect(await fixture.redis.hmget(runKeys(fixture.prefix, runId).record, 'waits', 'status')).toEqual([
      null,
      'waiting',
    ]);
    expect(await countsOf(agentId)).toEqual({});
  });

  it('counts a running run whose model call waits for its rate limit, and a run parked at its cap', async () => {
    const agentId = `agent-${randomUUID()}`;
    const [running, capped] = [await queuedRun(agentId), await queuedRun(agentId)];
    await records().start({ runId: running, agentId, attempt: 'a1' });
    const wait = { kind: 'rate-limit' as const, detail: 'openai/gpt-4.1-mini (rpm 60)' };
    expect(await records().markWaiting(running, wait, 'a1')).toBe(true);
    await records().park(capped, { kind: 'concurrency', detail: `${agentId} key all (limit 1)` });
    expect(await countsOf(agentId)).toEqual({ 'rate-limit': 1, concurrency: 1 });
    // The pruner sees a running run marked waiting as still waiting: its entry stays.
    await records().waiting.prune({ currentWait: records().currentWait, minAgeMs: 0 });
    expect(await countsOf(agentId)).toEqual({ 'rate-limit': 1, concurrency: 1 });
    expect(await records().markWaiting(running, undefined, 'a1')).toBe(true);
    expect(await countsOf(agentId)).toEqual({ concurrency: 1 });
  });

  it('leaves a run that ended uncounted: an ended run is not parked', async () => {
    const agentId = `agent-${randomUUID()}`;
    const runId = await queuedRun(agentId);
    await records().finish(runId, 'root/agent:x:0', cancelled);
    expect(await records().park(runId, { kind: 'conversation', detail: 'c' })).toBe(false);
    expect(await records().markUnserved(runId, agentId)).toBe(false);
    expect(await countsOf(agentId)).toEqual({});
  });

  it('prunes entries whose record no longer waits (a crash between the two writes), not live ones', async () => {
    const agentId = `agent-${randomUUID()}`;
    const [stale, live] = [await queuedRun(agentId), await queuedRun(agentId)];
    await records().park(stale, { kind: 'conversation', detail: 'c' });
    await records().park(live, { kind: 'conversation', detail: 'c' });
    // The record started, but its worker died before the count write: the entry stays behind.
    await fixture.redis.hdel(keyOfRecord(stale), 'waitingFor');
    await fixture.redis.hset(keyOfRecord(stale), 'status', 'running');
    expect(await countsOf(agentId)).toEqual({ conversation: 2 });
    const pruned = await records().waiting.prune({ currentWait: records().currentWait, minAgeMs: 0 });
    expect(pruned).toBeGreaterThanOrEqual(1);
    expect(await countsOf(agentId)).toEqual({ conversation: 1 });
    const since = await fixture.redis.zscore(waitingRunsKeys(fixture.prefix).since, live);
    expect(since).not.toBeNull();
  });

  it('keeps an entry that entered again after the prune read its record', async () => {
    const agentId = `agent-${randomUUID()}`;
    const runId = await queuedRun(agentId);
    await records().park(runId, { kind: 'conversation', detail: 'c' });
    // The prune reads the record as not waiting, then the run parks again before it removes.
    const pruned = await records().waiting.prune({
      minAgeMs: 0,
      currentWait: async (id) => {
        if (id !== runId) return records().currentWait(id);
        await fixture.redis.zadd(waitingRunsKeys(fixture.prefix).since, Date.now() + 1, runId);
        return undefined;
      },
    });
    expect(pruned).toBe(0);
    expect(await countsOf(agentId)).toEqual({ conversation: 1 });
  });
});

describe('pruning in batches', () => {
  it('goes on after the entries it checked, so stale entries behind live ones are reached', async () => {
    const agentId = `agent-${randomUUID()}`;
    const waiting = new RedisRunRecords({ redis: fixture.redis, prefix: fixture.prefix }).waiting;
    const live = await queuedRun(agentId);
    await records().park(live, { kind: 'conversation', detail: 'c' });
    const stale = await queuedRun(agentId);
    await waiting.enter(stale, { kind: 'conversation', agentId });
    // Every entry of this file's prefix is visited once per lap, one per call (and one call ends a lap).
    const entries = await fixture.redis.zcard(waitingRunsKeys(fixture.prefix).since);
    for (let call = 0; call <= entries && (await countsOf(agentId)).conversation !== 1; call++)
      await waiting.prune({ currentWait: records().currentWait, minAgeMs: 0, batch: 1 });
    expect(await countsOf(agentId)).toEqual({ conversation: 1 });
    expect(await fixture.redis.zscore(waitingRunsKeys(fixture.prefix).since, live)).not.toBeNull();
  });
});

describe('pruning entries that entered in the same millisecond', () => {
  it('reaches every one of them, one per call, although they share an entry time', async () => {
    const agentId = `agent-${randomUUID()}`;
    const prefix = `${fixture.prefix}:same-ms-${randomUUID()}`;
    const own = new RedisRunRecords({ redis: fixture.redis, prefix });
    const live = `run-${randomUUID()}`;
    await own.create({ runId: live, agentId });
    await own.park(live, { kind: 'conversation', detail: 'c' });
    const stale = [`run-${randomUUID()}`, `run-${randomUUID()}`, `run-${randomUUID()}`];
    for (const runId of stale) {
      await own.create({ runId, agentId });
      await own.waiting.enter(runId, { kind: 'conversation', agentId });
    }
    // All four at one entry time: Redis orders them by id, so the live one may come first.
    const since = waitingRunsKeys(prefix).since;
    for (const runId of [live, ...stale]) await fixture.redis.zadd(since, 1000, runId);
    let removed = 0;
    for (let call = 0; call < 10; call++)
      removed += await own.waiting.prune({ currentWait: own.currentWait, minAgeMs: 0, batch: 1 });
    expect(removed).toBe(3);
    expect(await fixture.redis.zrange(since, 0, -1)).toEqual([live]);
  });
});

describe('WaitingRunsReport', () => {
  it('labels the fleet’s agents by id, any other as unknown, and reports an emptied series as 0', async () => {
    const served = `agent-${randomUUID()}`;
    const stranger = `agent-${randomUUID()}`;
    const report = new WaitingRunsReport({
      redis: fixture.redis,
      prefix: fixture.prefix,
      servedAgents: [served],
      cacheMs: 0,
    });
    const runId = await queuedRun(served);
    await records().park(runId, { kind: 'conversation', detail: 'c' });
    await records().markUnserved(await queuedRun(stranger), stranger);
    const gauge = new Map<string, number>();
    const target = {
      set: (labels: { agent: string; kind: string }, value: number) =>
        void gauge.set(`${labels.agent}/${labels.kind}`, value),
    };
    await report.report(target);
    expect(gauge.get(`${served}/conversation`)).toBe(1);
    expect(gauge.get(`${served}/worker`)).toBe(0);
    expect(gauge.get('unknown/worker')).toBeGreaterThanOrEqual(1);
    expect([...gauge.keys()].some((key) => key.startsWith(stranger))).toBe(false);
    await records().start({ runId, agentId: served, attempt: 'a' });
    await report.report(target);
    expect(gauge.get(`${served}/conversation`)).toBe(0);
  });
});

function keyOfRecord(runId: string): string {
  return runKeys(fixture.prefix, runId).record;
}
