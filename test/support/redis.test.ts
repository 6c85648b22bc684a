import { createServer, type Server } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import {
  deleteKeysWithPrefix,
  NoRedisAvailableError,
  resolveRedis,
  uniqueKeyPrefix,
  useRedis,
} from './redis.js';
import { freePort, hasRedisServerBinary, startRedisServer } from './redis-server.js';
import { waitForKey } from './wait-for-key.js';

/** Machines with Docker only (the README supports them) have no `redis-server` binary. */
const hasBinary = hasRedisServerBinary();

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

  it('starts a private Redis when no URL is given (redis-server, else a container), and stops it', async () => {
    const target = await resolveRedis({ url: undefined });
    expect(target.source).toBe(hasBinary ? 'redis-server' : 'testcontainers');
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

describe('waitForKey', () => {
  const fixture = useRedis(import.meta.filename);

  it('returns the value once a fixture writes the key', async () => {
    const key = `${fixture.prefix}:later`;
    const waiting = waitForKey(fixture.redis, key);
    await fixture.redis.set(key, '42');
    await expect(waiting).resolves.toBe('42');
  });

  it('fails after its deadline with a message naming the key', async () => {
    const key = `${fixture.prefix}:never`;
    await expect(waitForKey(fixture.redis, key, { timeoutMs: 0 })).rejects.toThrow(
      `waitForKey: "${key}" was not set within 0 ms`,
    );
  });
});

describe.skipIf(!hasBinary)('a private redis-server', () => {
  it('starts on another port when the port it picked was taken before it could bind it', async () => {
    const taken = await listenOnFreePort();
    const picked: number[] = [];
    const server = await startRedisServer({
      pickPort: async () => {
        const port = picked.length === 0 ? portOf(taken) : await freePort();
        picked.push(port);
        return port;
      },
    });
    try {
      expect(picked).toHaveLength(2);
      expect(server.port).toBe(picked[1]);
      expect(await connect(server.url).ping()).toBe('PONG');
    } finally {
      await server.stop();
      taken.close();
    }
  });

  it('does not move a server whose port was given', async () => {
    const taken = await listenOnFreePort();
    try {
      await expect(startRedisServer({ port: portOf(taken) })).rejects.toThrow(/Address already in use/i);
    } finally {
      taken.close();
    }
  });
});

async function listenOnFreePort(): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

function portOf(server: Server): number {
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('the server has no port');
  return address.port;
}

describe.skipIf(!hasBinary)('a private redis-server with append-only file', () => {
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
