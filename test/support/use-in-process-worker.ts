/**
 * A real worker (BullMQ on the test's Redis) in the test process, serving `agents`, and a
 * client; both made before the file's tests and closed after them.
 */
import { createClient, type FlotillaClient } from '@flotilla/runtime/client';
import { createWorker, type FlotillaWorker } from '@flotilla/runtime/worker';
import { pino } from 'pino';
import { afterAll, beforeAll } from 'vitest';
import type { RedisFixture } from './redis.js';

type WorkerOptions = Parameters<typeof createWorker>[0];

export interface InProcessWorker {
  readonly client: FlotillaClient;
  readonly worker: FlotillaWorker;
}

/** `options`: the worker's, but for its connection, prefix and (silent) logger. */
export function useInProcessWorker(
  redis: RedisFixture,
  options: Omit<WorkerOptions, 'connection' | 'prefix'>,
): InProcessWorker {
  let client: FlotillaClient | undefined;
  let worker: FlotillaWorker | undefined;
  beforeAll(async () => {
    worker = createWorker({
      logger: pino({ level: 'silent' }),
      ...options,
      connection: redis.url,
      prefix: redis.prefix,
    });
    await worker.waitUntilReady();
    client = createClient({ connection: redis.url, prefix: redis.prefix });
  });
  afterAll(async () => {
    await client?.close();
    await worker?.close();
  });
  return {
    get client() {
      if (!client) throw new Error('useInProcessWorker() fields are ready inside tests only');
      return client;
    },
    get worker() {
      if (!worker) throw new Error('useInProcessWorker() fields are ready inside tests only');
      return worker;
    },
  };
}
