/**
 * `AnyKeyExistsBatch` over real Redis: the calls of one tick read their flags together (one MGET
 * on one Redis) and each gets its own answer; later calls read again and see flags set since.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useRedis } from '../../../../test/support/redis.js';
import { AnyKeyExistsBatch } from './any-key-exists.js';

const fixture = useRedis(import.meta.filename);

afterEach(() => {
  vi.restoreAllMocks();
});

describe('AnyKeyExistsBatch', () => {
  it('answers each call of a tick for its own keys, from one read', async () => {
    const redis = fixture.connect().duplicate();
    const flag = (name: string) => `${fixture.prefix}:flags:{${name}}:cancel`;
    await redis.set(flag('a'), '1');
    await redis.set(flag('c'), '1');
    const reads = vi.spyOn(redis, redis.isCluster ? 'exists' : 'mget');
    const batch = new AnyKeyExistsBatch(redis);
    const answers = await Promise.all([
      batch.any([flag('a'), flag('b')]),
      batch.any([flag('b')]),
      batch.any([flag('b'), flag('c')]),
      batch.any([]),
      batch.any([flag('b'), flag('a')]),
    ]);
    expect(answers).toEqual([true, false, true, false, true]);
    // Three distinct keys: one MGET on one Redis, one EXISTS per key on a cluster.
    expect(reads).toHaveBeenCalledTimes(redis.isCluster ? 3 : 1);

    await redis.set(flag('b'), '1');
    expect(await batch.any([flag('b')])).toBe(true);
    await redis.del(flag('a'), flag('b'), flag('c'));
    expect(await batch.any([flag('a'), flag('b'), flag('c')])).toBe(false);
    redis.disconnect();
  });

  it('reads after the commands sent before it on the same connection', async () => {
    const redis = fixture.connect().duplicate();
    const key = `${fixture.prefix}:flags:{order}:cancel`;
    const batch = new AnyKeyExistsBatch(redis);
    // As the worker sends the start script, then asks for the ancestors' flags.
    const set = redis.set(key, '1');
    const seen = batch.any([key]);
    expect(await Promise.all([set, seen])).toEqual(['OK', true]);
    await redis.del(key);
    redis.disconnect();
  });
});
