/**
 * The spend under usage limits, in memory and in Redis (one rule, two homes): calls in flight
 * reserve their estimate, so two calls that each fit alone cannot both pass a limit they pass
 * together; a settled call counts its real usage; a failed call gives its reservation back;
 * each limit's scope counts apart; a reservation whose call never settled (its worker died)
 * expires; stats round-trip, checked.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useRedis } from '../../../../test/support/redis.js';
import { runKeys } from '../keys.js';
import type { BudgetLimits, ScopedLimit } from './budget-options.js';
import { RedisTreeUsage } from './redis-tree-usage.js';
import { InMemoryTreeUsage, type TreeUsage } from './tree-usage.js';
import { modelCallStats } from './usage-stats.js';

const fixture = useRedis(import.meta.filename);

/** The scope of a root agent's limits (any 16 hex digits do here). */
const LEAD = 'aaaaaaaaaaaaaaaa';
const lead = (limits: BudgetLimits): ScopedLimit => ({ scope: LEAD, setBy: 'root/agent:lead:0', ...limits });
const tokens = (count: number) => ({ tokens: count, microUsd: 0 });

const homes: [string, () => TreeUsage][] = [
  ['memory', () => new InMemoryTreeUsage('root')],
  [
    'redis',
    () => new RedisTreeUsage({ redis: fixture.redis, prefix: fixture.prefix, rootRunId: randomUUID() }),
  ],
];

describe.each(homes)('tree usage (%s)', (_home, create) => {
  it('counts calls in flight against the limit, then their real usage', async () => {
    const tree = create();
    const limits = [lead({ maxTokens: 150 })];
    expect(await tree.reserve('a', tokens(100), limits)).toEqual({ ok: true });
    expect(await tree.reserve('b', tokens(100), limits)).toEqual({
      ok: false,
      refusedBy: limits[0],
      kind: 'tokens',
      limit: 150,
      spent: 100,
      estimate: 100,
    });
    await tree.release('a', [LEAD]);
    expect(await tree.reserve('b', tokens(100), limits)).toEqual({ ok: true });
    await tree.settle({ tokens: 120, microUsd: 7 }, [LEAD], 'b');
    expect(await tree.reserve('c', tokens(40), limits)).toMatchObject({ ok: false, spent: 120 });
    expect(await tree.reserve('c', tokens(30), limits)).toEqual({ ok: true });
  });

  it('counts each scope apart: a child’s limit sees its own spend, the parent’s sees both', async () => {
    const tree = create();
    const parent = lead({ maxTokens: 1_000 });
    const child = { scope: 'bbbbbbbbbbbbbbbb', setBy: 'root/agent:lead:0/g0/agent:child:0', maxTokens: 100 };
    await tree.settle(tokens(600), [parent.scope]); // the parent's own calls
    expect(await tree.reserve('x', tokens(90), [parent, child])).toEqual({ ok: true });
    await tree.settle(tokens(90), [parent.scope, child.scope], 'x');
    expect(await tree.reserve('y', tokens(20), [parent, child])).toMatchObject({
      ok: false,
      refusedBy: child,
      spent: 90,
    });
    expect(await tree.reserve('z', tokens(400), [parent])).toMatchObject({
      ok: false,
      refusedBy: parent,
      spent: 690,
    });
  });

  it('refuses a cost limit already reached, or passed by the estimate', async () => {
    const tree = create();
    await tree.settle({ tokens: 0, microUsd: 1_000 }, [LEAD]);
    expect(await tree.reserve('a', tokens(1), [lead({ maxCostMicroUsd: 1_000 })])).toMatchObject({
      ok: false,
      kind: 'cost',
      spent: 1_000,
    });
    expect(
      await tree.reserve('a', { tokens: 1, microUsd: 501 }, [lead({ maxCostMicroUsd: 1_500 })]),
    ).toMatchObject({
      ok: false,
      kind: 'cost',
      estimate: 501,
    });
    expect(await tree.reserve('a', { tokens: 1, microUsd: 500 }, [lead({ maxCostMicroUsd: 1_500 })])).toEqual(
      {
        ok: true,
      },
    );
  });

  it('keeps a run’s stats for its parent until it drops them', async () => {
    const tree = create();
    const stats = modelCallStats(
      { provider: 'p', id: 'm' },
      { promptTokens: 3, completionTokens: 4, totalTokens: 7 },
      { micro_usd: 2 },
    );
    await tree.storeRunStats('child', stats);
    expect(await tree.runStats('child')).toEqual(stats);
    expect(await tree.runStats('other')).toBeUndefined();
    await tree.dropRunStats('child');
    expect(await tree.runStats('child')).toBeUndefined();
  });
});

describe('tree usage in Redis', () => {
  it('drops a reservation whose call never settled once it expired', async () => {
    const rootRunId = randomUUID();
    const tree = new RedisTreeUsage({ redis: fixture.redis, prefix: fixture.prefix, rootRunId });
    const { usageReservations } = runKeys(fixture.prefix, rootRunId);
    await fixture.redis.hset(usageReservations, `dead-worker|${LEAD}`, `100:0:${Date.now() - 1}`);
    expect(await tree.reserve('a', tokens(100), [lead({ maxTokens: 150 })])).toEqual({ ok: true });
    expect(await fixture.redis.hkeys(usageReservations)).toEqual([`a|${LEAD}`]);
  });

  it('writes nothing for a call under no limit', async () => {
    const rootRunId = randomUUID();
    const tree = new RedisTreeUsage({ redis: fixture.redis, prefix: fixture.prefix, rootRunId });
    await tree.settle(tokens(5), []);
    expect(await fixture.redis.exists(runKeys(fixture.prefix, rootRunId).usage)).toBe(0);
  });

  it('reads stored stats that are not usage stats as none', async () => {
    const rootRunId = randomUUID();
    const tree = new RedisTreeUsage({ redis: fixture.redis, prefix: fixture.prefix, rootRunId });
    await fixture.redis.hset(
      runKeys(fixture.prefix, rootRunId).usage,
      'stats:x',
      '{"costs":{"usd":1.5}}',
      'stats:y',
      'nope',
    );
    expect(await tree.runStats('x')).toBeUndefined();
    expect(await tree.runStats('y')).toBeUndefined();
  });
});
