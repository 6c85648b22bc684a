/**
 * The MONITOR reader shared by the bench's storage floor and the suites' `monitoredCommands`
 * (`bench/redis-monitor.mjs`): every argument as the command sent it, on a password-protected Redis
 * too, and `monitoredCommands` reporting through it from an ioredis connection's options.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMonitor, parseMonitorLine } from '../../bench/redis-monitor.mjs';
import { monitoredCommands } from './monitored-commands.js';
import { useRedis } from './redis.js';
import { hasRedisServerBinary, type RedisServerProcess, startRedisServer } from './redis-server.js';

const redis = useRedis(import.meta.filename);

describe('the MONITOR reader', () => {
  it('reads back what MONITOR escapes: backslashes, control characters, quotes, spaces and UTF-8', async () => {
    const value = 'a\\b "quoted" " " \\"\n\t\u0001 café ✓';
    const key = `${redis.prefix}:escapes`;
    let reported!: (args: string[]) => void;
    const seen = new Promise<string[]>((resolve) => {
      reported = resolve;
    });
    const monitor = await openMonitor(redis.url, (args) => {
      if (args[1] === key) reported(args);
    });
    try {
      await redis.redis.set(key, value);
      expect(await seen).toEqual(['set', key, value]);
    } finally {
      monitor.close();
    }
    expect(parseMonitorLine('+1.5 [0 lua] "HSET" "k" "\\x00\\\\"')).toEqual({
      args: ['HSET', 'k', '\u0000\\'],
      source: 'lua',
    });
    expect(parseMonitorLine('+OK')).toBeUndefined();
  });

  it('gives monitoredCommands the commands of the work, exact and in order, from a connection', async () => {
    const key = `${redis.prefix}:work`;
    const commands = await monitoredCommands(
      redis.redis,
      ({ args }) => args[1] === key,
      async () => {
        await redis.redis.rpush(key, 'one "two"', 'x\\y');
        await redis.redis.eval("return redis.call('LLEN', KEYS[1])", 1, key);
      },
    );
    expect(commands).toEqual([
      { args: ['rpush', key, 'one "two"', 'x\\y'], source: expect.stringMatching(/:\d+$/) },
      { args: ['LLEN', key], source: 'lua' },
    ]);
  });

  describe.runIf(hasRedisServerBinary())('on a Redis that requires a password', () => {
    let server: RedisServerProcess;
    beforeAll(async () => {
      server = await startRedisServer({ password: 'a pass "word"' });
    });
    afterAll(async () => {
      await server?.stop();
    });

    it('authenticates first, from the URL or from the connection options', async () => {
      const connection = new Redis(server.url);
      try {
        const fromUrl: string[][] = [];
        const byUrl = await openMonitor(server.url, (args) => fromUrl.push(args));
        const fromOptions = await monitoredCommands(
          connection,
          ({ args }) => args[0] === 'set',
          async () => {
            await connection.set('monitored', '1');
          },
        );
        byUrl.close();
        expect(fromOptions.map(({ args }) => args)).toEqual([['set', 'monitored', '1']]);
        expect(fromUrl).toContainEqual(['set', 'monitored', '1']);
      } finally {
        connection.disconnect();
      }
    });

    it('rejects with what Redis answered when the password is wrong', async () => {
      const url = server.url.replace(/:\/\/[^@]*@/, '://:wrong@');
      await expect(openMonitor(url, () => {})).rejects.toThrow(/MONITOR: Redis answered WRONGPASS/);
    });
  });
});
