import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useRedis } from '../../../../test/support/redis.js';
import { runIndexKeys } from '../keys.js';
import { INDEX_UPKEEP_INTERVAL_MS, indexMember, RedisRunIndex } from './run-index.js';

const fixture = useRedis(import.meta.filename);
const KEY_SECONDS = 3600;
const index = () =>
  new RedisRunIndex({ redis: fixture.redis, prefix: fixture.prefix, keySeconds: KEY_SECONDS });

describe('RedisRunIndex upkeep', () => {
  it('trims and renews an index key once per interval, not on every add', async () => {
    const runs = index();
    const tenant = `t${randomUUID().slice(0, 8)}`;
    const key = runIndexKeys(fixture.prefix, tenant).agent('a');
    const start = Date.now();
    const stale = indexMember(start - 2 * KEY_SECONDS * 1000, 'stale');
    const add = (runId: string, now: number) =>
      runs.add({ runId, agentId: 'a', tenant, createdAt: now }, now);

    await add('r1', start);
    expect(await fixture.redis.ttl(key)).toBeGreaterThan(KEY_SECONDS - 60);
    // Within the interval: the entry is added, the stale one and the lost TTL are left alone.
    await fixture.redis.zadd(key, 0, stale);
    await fixture.redis.persist(key);
    await add('r2', start + INDEX_UPKEEP_INTERVAL_MS - 1);
    expect(await fixture.redis.zrange(key, 0, -1)).toEqual([
      stale,
      indexMember(start, 'r1'),
      indexMember(start + INDEX_UPKEEP_INTERVAL_MS - 1, 'r2'),
    ]);
    expect(await fixture.redis.ttl(key)).toBe(-1);
    // Once the interval has passed: trimmed and renewed again.
    await add('r3', start + INDEX_UPKEEP_INTERVAL_MS);
    expect(await fixture.redis.zrange(key, 0, -1)).not.toContain(stale);
    expect(await fixture.redis.zcard(key)).toBe(3);
    expect(await fixture.redis.ttl(key)).toBeGreaterThan(KEY_SECONDS - 60);
  });

  it('keeps up every key a run is indexed in the first time it sees it', async () => {
    const runs = index();
    const tenant = `t${randomUUID().slice(0, 8)}`;
    const keys = runIndexKeys(fixture.prefix, tenant);
    const now = Date.now();
    await runs.add({ runId: 'r1', agentId: 'a', tenant, createdAt: now }, now);
    await runs.add({ runId: 'r2', agentId: 'a', tenant, createdAt: now, conversationId: 'c1' }, now + 1);
    for (const key of [keys.all, keys.agent('a'), keys.conversation('c1')])
      expect(await fixture.redis.ttl(key)).toBeGreaterThan(KEY_SECONDS - 60);
  });
});
