/**
 * A concurrency cap survives a dead worker: its place is a lease that lapses. A worker process
 * holding the only place of a capped agent is SIGKILLed; a run over the cap that waited behind
 * it, and the run it held (taken over), both end on a healthy worker. Nothing strands.
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createClient, type FlotillaClient } from '@flotilla/runtime/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useRedis } from '../support/redis.js';
import { waitForKey } from '../support/wait-for-key.js';
import { waitUntil } from '../support/wait-until.js';
import { WorkerProcesses } from '../support/worker-processes.js';

const redis = useRedis(import.meta.filename);
const prefix = `${redis.prefix}-cap-crash`;
const program = fileURLToPath(new URL('./fixtures/capped-worker.ts', import.meta.url));
let workers: WorkerProcesses;
let client: FlotillaClient;

beforeAll(() => {
  workers = new WorkerProcesses(program, { REDIS_URL: redis.url, FLOTILLA_PREFIX: prefix });
  client = createClient({ connection: redis.url, prefix });
});

afterAll(async () => {
  await client?.close();
  await workers?.stop();
});

describe('when the worker holding the only place dies', () => {
  it('lets the place lapse: the waiting run and the held run both succeed elsewhere', async () => {
    const blockKey = `${prefix}:block:${randomUUID()}`;
    const doomed = await workers.start({ BLOCK_KEY: blockKey });
    const held = await client.submit('single-file', { n: 1 });
    await waitForKey(redis.redis, `${blockKey}:inside`);
    const waiter = await client.submit('single-file', { n: 2 });
    await waitUntil(
      async () => ((await client.getRun(waiter.id))?.waitingFor?.kind === 'concurrency' ? true : undefined),
      { what: 'the second run waiting for the cap' },
    );
    await workers.kill(doomed.pid ?? -1);
    await workers.start();
    await expect(waiter.result()).resolves.toEqual({ done: 2 });
    await expect(held.result()).resolves.toEqual({ done: 1 });
  });
});
