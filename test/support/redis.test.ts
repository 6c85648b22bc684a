import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import {
  deleteKeysWithPrefix,
  NoRedisAvailableError,
  resolveRedis,
  uniqueKeyPrefix,
  useRedis,
} from './redis.js';
import { startRedisServer } from './redis-server.js';

const opened: Redis[] = [];
function connect(url: string): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: 0, retryStrategy: () => null, lazyConnect: true });
  redis.on('error', () => {});
  opened.push(redis);
  return redis;
}
afterAll(async () => {
  for (const redis of opened) redis.disconnect();
});

describe('the Redis harness', () => {
  const fixture = useRedis(import.meta.filename);

  it('gives the file a working connection and a private prefix', async () => {
    await fixture.redis.set(`${fixture.prefix}:hello`, 'world');
    expect(await fixture.redis.get(`${fixture.prefix}:hello`)).toBe('world');
    expect(fixture.prefix).toMatch(/^t:redis:[0-9a-f]{8}$/);
  });

  it('uses REDIS_URL when it is set', async () => {
    const target = await resolveRedis({ url: fixture.url });
    expect(target.source).toBe('env');
    const redis = connect(target.url);
    expect(await redis.ping()).toBe('PONG');
    await target.stop();
    expect(await redis.ping()).toBe('PONG');
  });

  it('starts a private redis-server when no URL is given, and stops it', async () => {
    const target = await resolveRedis({ url: undefined });
    expect(target.source).toBe('redis-server');
    expect(target.url).not.toBe(fixture.url);
    const redis = connect(target.url);
    expect(await redis.ping()).toBe('PONG');
    await target.stop();
    await expect(redis.ping()).rejects.toThrow();
  });

  it('falls back to a container when redis-server is missing', async () => {
    const stops: string[] = [];
    const target = await resolveRedis({
      url: undefined,
      redisServerAvailable: false,
      startContainer: async () => ({ url: fixture.url, stop: async () => void stops.push('container') }),
    });
    expect(target.source).toBe('testcontainers');
    await target.stop();
    expect(stops).toEqual(['container']);
  });

  it('says what to do when neither redis-server nor Docker is there', async () => {
    const attempt = resolveRedis({
      url: undefined,
      redisServerAvailable: false,
      startContainer: async () => {
        throw new Error('Could not find a working container runtime strategy');
      },
    });
    await expect(attempt).rejects.toBeInstanceOf(NoRedisAvailableError);
    await expect(attempt).rejects.toThrow(/Set REDIS_URL, install redis-server/);
  });

  it('deletes only the keys under a prefix', async () => {
    const mine = uniqueKeyPrefix('a.test.ts');
    const theirs = uniqueKeyPrefix('a.test.ts');
    expect(mine).not.toBe(theirs);
    for (let index = 0; index < 1200; index++) await fixture.redis.set(`${mine}:${index}`, '1');
    await fixture.redis.set(`${theirs}:kept`, '1');
    expect(await deleteKeysWithPrefix(fixture.redis, mine)).toBe(1200);
    expect(await fixture.redis.get(`${theirs}:kept`)).toBe('1');
    await deleteKeysWithPrefix(fixture.redis, theirs);
  });
});

describe('a private redis-server with append-only file', () => {
  it('keeps written data across a crash and restart', async () => {
    const server = await startRedisServer({ appendOnly: true });
    try {
      const before = connect(server.url);
      await before.set('survives', 'yes');
      before.disconnect();
      await server.restart();
      const after = connect(server.url);
      expect(await after.get('survives')).toBe('yes');
    } finally {
      await server.stop();
    }
  });

  it('loses data across a restart without it', async () => {
    const server = await startRedisServer({ appendOnly: false });
    try {
      const before = connect(server.url);
      await before.set('survives', 'yes');
      before.disconnect();
      await server.restart();
      const after = connect(server.url);
      expect(await after.get('survives')).toBeNull();
    } finally {
      await server.stop();
    }
  });
});
