/**
 * Connections watched through one logger report an outage of a private redis-server with one
 * `lost` and one `restored` line, never on the console; a bounded request fails with
 * RedisUnavailableError while it is down and works again after.
 */
import { once } from 'node:events';
import { Writable } from 'node:stream';
import type { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type RedisServerProcess, startRedisServer } from '../../../../test/support/redis-server.js';
import { boundedRequest } from './bounded-request.js';
import { openRedis } from './open-redis.js';

let server: RedisServerProcess | undefined;
const connections: Redis[] = [];

afterEach(async () => {
  for (const connection of connections.splice(0)) connection.disconnect();
  await server?.stop();
  server = undefined;
  vi.restoreAllMocks();
});

/** A pino logger whose lines land in `lines`. */
function memoryLogger() {
  const lines: { level: number; msg: string; role?: string }[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

/** Resolves after `connection` reported an error (a failed reconnect). */
function nextError(connection: Redis): Promise<unknown> {
  return once(connection, 'error');
}

describe('watchConnection', () => {
  it('logs one lost and one restored line for all connections of a logger, and nothing on the console', async () => {
    const consoleError = vi.spyOn(console, 'error');
    server = await startRedisServer();
    const { port } = server;
    const { logger, lines } = memoryLogger();
    const commands = openRedis(server.url, { role: 'commands', logger });
    const subscriber = openRedis(server.url, { role: 'subscriber', logger });
    connections.push(commands, subscriber);
    await Promise.all([commands.ping(), subscriber.ping()]);

    const failed = Promise.all([nextError(commands), nextError(commands), nextError(subscriber)]);
    await server.stop();
    await failed; // several failed reconnects each
    server = await startRedisServer({ port });
    await Promise.all([once(commands, 'ready'), once(subscriber, 'ready')]);

    expect(lines.map((line) => line.msg)).toEqual([
      'Redis connection lost; reconnecting',
      'Redis connection restored',
    ]);
    expect(lines[0]).toMatchObject({ level: 40, address: `127.0.0.1:${port}` });
    expect(['commands', 'subscriber']).toContain(lines[0]?.role);
    expect(consoleError).not.toHaveBeenCalled();
  });
});

describe('boundedRequest', () => {
  it('fails with RedisUnavailableError naming the address while Redis is down, and answers after', async () => {
    server = await startRedisServer();
    const { port } = server;
    const redis = openRedis(server.url, {
      role: 'client',
      redis: { enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: 300 },
    });
    connections.push(redis);
    const bound = { redis, timeoutMs: 300 };
    expect(await boundedRequest(bound, () => redis.set('k', 'v'))).toBe('OK');

    await server.stop();
    await expect(boundedRequest(bound, () => redis.get('k'))).rejects.toMatchObject({
      name: 'RedisUnavailableError',
      address: `127.0.0.1:${port}`,
      message: expect.stringContaining(`Redis at 127.0.0.1:${port} did not answer within 300 ms`),
    });

    server = await startRedisServer({ port });
    expect(await boundedRequest({ redis, timeoutMs: 10_000 }, () => redis.ping())).toBe('PONG');
  });
});
