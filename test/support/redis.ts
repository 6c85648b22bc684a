/**
 * The shared Redis harness (ARCHITECTURE.md §8). A test file asks for Redis with
 * {@link useRedis}; the harness picks, in order:
 *   1. `REDIS_URL` when it is set (CI sets it to the machine's Redis),
 *   2. a private `redis-server` on a free port when the binary is installed,
 *   3. a Redis container through Testcontainers when a Docker engine answers.
 * A file run by the cluster suite (`test/cluster/`, which sets `FLOTILLA_TEST_REDIS_CLUSTER=1`
 * before it loads the file) gets a private 3-master Redis Cluster instead (`redis-cluster.ts`).
 * Every test file gets its own key prefix, and the keys under it are deleted afterwards.
 */
import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import { connectRedis } from '@flotilla/runtime/worker';
import type { Cluster, Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { startRedisCluster } from './redis-cluster.js';
import { hasRedisServerBinary, startRedisServer } from './redis-server.js';

export type RedisSource = 'env' | 'redis-server' | 'testcontainers' | 'cluster';

export interface RedisTarget {
  url: string;
  source: RedisSource;
  /** Stops what the harness started; a no-op for `REDIS_URL`. */
  stop(): Promise<void>;
}

export interface ResolveRedisOptions {
  /** @default process.env.REDIS_URL */
  url?: string | undefined;
  /** @default whether `redis-server` runs on this machine */
  redisServerAvailable?: boolean;
  /** How to start a container; @default Testcontainers' `GenericContainer('redis:7')` */
  startContainer?: () => Promise<{ url: string; stop(): Promise<void> }>;
}

/** Thrown when none of the three ways to get a Redis is open on this machine. */
export class NoRedisAvailableError extends Error {
  override readonly name = 'NoRedisAvailableError';
}

/** Set (to `1`) by the cluster suite: {@link useRedis} then starts a private Redis Cluster. */
export const CLUSTER_SUITE_ENV = 'FLOTILLA_TEST_REDIS_CLUSTER';

export async function resolveRedis(options: ResolveRedisOptions = {}): Promise<RedisTarget> {
  if (!('url' in options) && process.env[CLUSTER_SUITE_ENV] === '1') {
    const cluster = await startRedisCluster();
    return { url: cluster.url, source: 'cluster', stop: () => cluster.stop() };
  }
  const url = 'url' in options ? options.url : process.env.REDIS_URL;
  if (url) return { url, source: 'env', stop: async () => {} };

  const redisServerAvailable = options.redisServerAvailable ?? hasRedisServerBinary();
  if (redisServerAvailable) {
    const server = await startRedisServer();
    return { url: server.url, source: 'redis-server', stop: () => server.stop() };
  }

  const startContainer = options.startContainer ?? startRedisContainer;
  try {
    const container = await startContainer();
    return { url: container.url, source: 'testcontainers', stop: () => container.stop() };
  } catch (error) {
    throw new NoRedisAvailableError(
      'No Redis for the tests: REDIS_URL is not set, redis-server is not installed, and a Redis ' +
        `container could not be started (${(error as Error).message}). Set REDIS_URL, install ` +
        'redis-server (apt-get install redis-server), or start a Docker engine.',
      { cause: error },
    );
  }
}

async function startRedisContainer(): Promise<{ url: string; stop(): Promise<void> }> {
  // Imported lazily: Testcontainers is only needed on machines without redis-server.
  const { GenericContainer } = await import('testcontainers');
  const container = await new GenericContainer('redis:7-alpine').withExposedPorts(6379).start();
  return {
    url: `redis://${container.getHost()}:${container.getMappedPort(6379)}`,
    stop: async () => {
      await container.stop();
    },
  };
}

/** A key prefix no other test file or run shares, e.g. `t:queue.test:4f1c…`. */
export function uniqueKeyPrefix(testFile: string): string {
  return `t:${basename(testFile).replace(/\.(test|spec)\.[cm]?[jt]s$/, '')}:${randomUUID().slice(0, 8)}`;
}

/**
 * Deletes every key that starts with `prefix`, with SCAN so a shared Redis is never blocked;
 * on a cluster, on every master (SCAN walks one node's keys).
 */
export async function deleteKeysWithPrefix(redis: Redis, prefix: string): Promise<number> {
  if (!redis.isCluster) return deleteNodeKeys(redis, prefix);
  const masters = (redis as unknown as Cluster).nodes('master');
  const counts = await Promise.all(masters.map((node) => deleteNodeKeys(node, prefix)));
  return counts.reduce((sum, count) => sum + count, 0);
}

async function deleteNodeKeys(redis: Redis, prefix: string): Promise<number> {
  let deleted = 0;
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    cursor = next;
    // One UNLINK per key (pipelined): on a cluster node the keys of one page lie in many slots.
    if (keys.length > 0) {
      const pipeline = redis.pipeline();
      for (const key of keys) pipeline.unlink(key);
      for (const [, count] of (await pipeline.exec()) ?? []) deleted += Number(count ?? 0);
    }
  } while (cursor !== '0');
  return deleted;
}

export interface RedisFixture {
  /** The Redis URL chosen for this file. */
  readonly url: string;
  readonly source: RedisSource;
  /** This file's key prefix; pass it to Flotilla (and BullMQ) as `prefix`. */
  readonly prefix: string;
  /** An ioredis connection for assertions; closed after the file. */
  readonly redis: Redis;
  /** A new connection that the fixture closes after the file. */
  connect(): Redis;
}

/**
 * Registers `beforeAll` / `afterAll` hooks that give this test file a Redis and a private key
 * prefix, and delete the file's keys afterwards. Read the fields inside tests or hooks.
 */
export function useRedis(testFile: string): RedisFixture {
  let target: RedisTarget | undefined;
  let assertions: Redis | undefined;
  const connections: Redis[] = [];
  const prefix = uniqueKeyPrefix(testFile);
  const need = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useRedis() fields are ready inside tests and hooks only');
    return value;
  };
  const fixture: RedisFixture = {
    get url() {
      return need(target).url;
    },
    get source() {
      return need(target).source;
    },
    prefix,
    get redis() {
      return need(assertions);
    },
    connect() {
      const connection = connectRedis(need(target).url, { maxRetriesPerRequest: null });
      connections.push(connection);
      return connection;
    },
  };
  beforeAll(async () => {
    target = await resolveRedis();
    assertions = fixture.connect();
  });
  afterAll(async () => {
    if (assertions) await deleteKeysWithPrefix(assertions, prefix);
    await Promise.all(connections.map((connection) => connection.quit().catch(() => undefined)));
    await target?.stop();
  });
  return fixture;
}
