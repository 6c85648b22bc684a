/**
 * `coalesceWrites` over real Redis: commands sent in one tick are held in the corked socket and
 * written together on the next tick, in order, with their own replies; the connection works the
 * same across a reconnect, and a command sent while it is down fails at once as before.
 */
import { once } from 'node:events';
import type { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { useRedis } from '../../../../test/support/redis.js';
import { coalesceWrites } from './coalesce-writes.js';

const fixture = useRedis(import.meta.filename);
const opened: Redis[] = [];

afterAll(() => {
  for (const redis of opened) redis.disconnect();
});

/** A fail-fast connection like the client's, with its writes coalesced, once it is ready. */
async function coalesced(): Promise<Redis> {
  const redis = fixture.connect().duplicate({ enableOfflineQueue: false, maxRetriesPerRequest: 0 });
  opened.push(redis);
  if (redis.status !== 'ready') await once(redis, 'ready');
  coalesceWrites(redis);
  return redis;
}

describe('coalesceWrites', () => {
  it('holds the commands of one tick in the corked socket and writes them together, in order', async () => {
    const redis = await coalesced();
    const key = `${fixture.prefix}:coalesce:list`;
    const replies = Promise.all([
      redis.rpush(key, 'a'),
      redis.rpush(key, 'b'),
      redis.lrange(key, 0, -1),
      redis.del(key),
    ]);
    // Nothing left yet: the four commands wait in the socket for the end of the tick.
    expect(redis.stream.writableCorked).toBe(1);
    await new Promise((resolve) => process.nextTick(resolve));
    expect(redis.stream.writableCorked).toBe(0);
    expect(await replies).toEqual([1, 2, ['a', 'b'], 1]);
  });

  it('takes in the commands a nextTick queued after the first one sends (a TickBatch flush)', async () => {
    const redis = await coalesced();
    const key = `${fixture.prefix}:coalesce:batched`;
    const first = redis.set(key, 'a');
    const batched = new Promise<[string | null, number]>((resolve, reject) => {
      process.nextTick(() => {
        // Still corked: this command goes out in the same write as the first.
        expect(redis.stream.writableCorked).toBe(1);
        Promise.all([redis.get(key), redis.del(key)]).then(resolve, reject);
      });
    });
    expect(await first).toBe('OK');
    expect(await batched).toEqual(['a', 1]);
  });

  it('coalesces the commands sent from one reply handler, and scripts as well', async () => {
    const redis = await coalesced();
    const key = `${fixture.prefix}:coalesce:counter`;
    const results = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        await redis.incr(key);
        return redis.eval('return ARGV[1]', 0, String(i));
      }),
    );
    expect(results).toEqual(Array.from({ length: 50 }, (_, i) => String(i)));
    expect(await redis.get(key)).toBe('50');
  });

  it('fails a command at once while the connection is down, and works again once it is back', async () => {
    const redis = await coalesced();
    const key = `${fixture.prefix}:coalesce:after-reconnect`;
    const closed = once(redis, 'close');
    const ready = once(redis, 'ready');
    redis.disconnect(true);
    await closed;
    await expect(redis.set(key, 'x')).rejects.toThrow(/writeable/);
    await ready;
    const replies = Promise.all([redis.set(key, 'y'), redis.get(key)]);
    expect(redis.stream.writableCorked).toBe(1);
    expect(await replies).toEqual(['OK', 'y']);
  });
});
