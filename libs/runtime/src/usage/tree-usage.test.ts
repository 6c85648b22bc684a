/**
 * The tree's spend, in memory and in Redis (one rule, two homes): calls in flight reserve their
 * estimate, so two calls that each fit alone cannot both pass a limit they pass together; a
 * settled call counts its real usage; a failed call gives its reservation back; a reservation
 * whose call never settled (its worker died) expires; stats round-trip, checked.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useRedis } from '../../../../test/support/redis.js';
import { runKeys } from '../keys.js';
import { RedisTreeUsage } from './redis-tree-usage.js';
import { InMemoryTreeUsage, type TreeUsage } from './tree-usage.js';
import { modelCallStats } from './usage-stats.js';

const fixture = useRedis(import.meta.filename);

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
    const limits = { maxTokens: 150 };
    expect(await tree.reserve('a', { tokens: 100, microUsd: 0 }, limits)).toEqual({ ok: true });
    expect(await tree.reserve('b', { tokens: 100, microUsd: 0 }, limits)).toEqual({
      ok: false,
      kind: 'tokens',
      limit: 150,
      spent: 100,
      estimate: 100,
    });
    await tree.release('a');
    expect(await tree.reserve('b', { tokens: 100, microUsd: 0 }, limits)).toEqual({ ok: true });
    await tree.settle({ tokens: 120, microUsd: 7 }, 'b');
    expect(await tree.reserve('c', { tokens: 40, microUsd: 0 }, limits)).toMatchObject({
      ok: false,
      spent: 120,
    });
    expect(await tree.reserve('c', { tokens: 30, microUsd: 0 }, limits)).toEqual({ ok: true });
  });

  it('refuses a cost limit already reached, or passed by the estimate', async () => {
    const tree = create();
    await tree.settle({ tokens: 0, microUsd: 1_000 });
    expect(await tree.reserve('a', { tokens: 1, microUsd: 0 }, { maxCostMicroUsd: 1_000 })).toMatchObject({
      ok: false,
      kind: 'cost',
      spent: 1_000,
    });
    expect(await tree.reserve('a', { tokens: 1, microUsd: 501 }, { maxCostMicroUsd: 1_500 })).toMatchObject({
      ok: false,
      kind: 'cost',
      estimate: 501,
    });
    expect(await tree.reserve('a', { tokens: 1, microUsd: 500 }, { maxCostMicroUsd: 1_500 })).toEqual({
      ok: true,
    });
  });

  it('keeps a run’s stats for its parent', async () => {
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
    await fixture.redis.hset(usageReservations, 'dead-worker', `100:0:${Date.now() - 1}`);
    expect(await tree.reserve('a', { tokens: 100, microUsd: 0 }, { maxTokens: 150 })).toEqual({ ok: true });
    expect(await fixture.redis.hkeys(usageReservations)).toEqual(['a']);
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
