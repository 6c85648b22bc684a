import { describe, expect, it } from 'vitest';
import { InvalidConfigError } from './invalid-config-error.js';
import { InvalidRedisUrlError, parseRedisEndpoint } from './redis-endpoint.js';
import { resolveConfig } from './resolve-config.js';

describe('parseRedisEndpoint', () => {
  it('keeps a redis:// or rediss:// URL as one Redis', () => {
    expect(parseRedisEndpoint('redis://cache:6380/2')).toEqual({
      kind: 'single',
      url: 'redis://cache:6380/2',
    });
    expect(parseRedisEndpoint('rediss://:pw@cache:6380')).toMatchObject({ kind: 'single' });
  });

  it('reads every seed node, the credentials and TLS of a cluster URL', () => {
    expect(
      parseRedisEndpoint('rediss+cluster://app:s%40cret@10.0.0.1:7000,node-2.local:7001,[::1]:7002/'),
    ).toEqual({
      kind: 'cluster',
      seeds: [
        { host: '10.0.0.1', port: 7000 },
        { host: 'node-2.local', port: 7001 },
        { host: '::1', port: 7002 },
      ],
      username: 'app',
      password: 's@cret',
      tls: true,
    });
    expect(parseRedisEndpoint('redis+cluster://:pw@127.0.0.1:7000')).toMatchObject({
      username: undefined,
      password: 'pw',
      tls: false,
    });
  });

  it.each([
    ['redis+cluster://127.0.0.1', 'not host:port'],
    ['redis+cluster://127.0.0.1:0', 'from 1 to 65535'],
    ['redis+cluster://127.0.0.1:70000', 'from 1 to 65535'],
    ['redis+cluster://a:7000,,b:7001', 'not host:port'],
    ['redis+cluster://a:7000/2', 'no path'],
    ['http://cache:6379', 'scheme http:'],
    ['cache:6379', 'scheme cache:'],
  ])('refuses %s, saying what is wrong', (url, reason) => {
    expect(() => parseRedisEndpoint(url)).toThrow(InvalidRedisUrlError);
    expect(() => parseRedisEndpoint(url)).toThrow(reason);
  });
});

describe('REDIS_URL', () => {
  it('accepts a cluster URL', () => {
    const url = 'redis+cluster://127.0.0.1:7000,127.0.0.1:7001';
    expect(resolveConfig({}, { REDIS_URL: url }).redisUrl).toBe(url);
  });

  it('fails with InvalidConfigError naming REDIS_URL and the bad seed', () => {
    const attempt = () => resolveConfig({}, { REDIS_URL: 'redis+cluster://127.0.0.1:7000,nope' });
    expect(attempt).toThrow(InvalidConfigError);
    expect(attempt).toThrow(/REDIS_URL.*the seed "nope" is not host:port/s);
  });
});
