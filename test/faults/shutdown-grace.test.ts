/**
 * Graceful shutdown finishes even with a hung run: a worker told to stop (SIGTERM) while its run
 * hangs (ignoring its signal) waits out its shutdown grace period, hands the run back to the
 * queue and exits 0; another worker replays the run and finishes it.
 */
import { fileURLToPath } from 'node:url';
import { createClient, type FlotillaClient } from '@flotilla/runtime/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useRedis } from '../support/redis.js';
import { waitForKey } from '../support/wait-for-key.js';
import { WorkerProcesses } from '../support/worker-processes.js';
import { faultKeys } from './fixtures/fault-agents.js';
import { reportFigure } from './fixtures/figures.js';

const redis = useRedis(import.meta.filename);
const program = fileURLToPath(new URL('./fixtures/fault-worker.ts', import.meta.url));
const GRACE_MS = 1000;
let workers: WorkerProcesses;
let client: FlotillaClient;

beforeAll(async () => {
  workers = new WorkerProcesses(program, {
    REDIS_URL: redis.url,
    FLOTILLA_PREFIX: redis.prefix,
    SHUTDOWN_GRACE_MS: String(GRACE_MS),
  });
  await Promise.all([workers.start(), workers.start()]);
  client = createClient({ connection: redis.url, prefix: redis.prefix });
});

afterAll(async () => {
  await client?.close();
  await workers?.stop();
});

describe('SIGTERM while a run hangs', () => {
  it('exits 0 after the grace period and hands the run to another worker', async () => {
    const keys = faultKeys(redis.prefix);
    const run = await client.submit('hang-once', {});
    const hung = Number(await waitForKey(redis.redis, keys.hanging('hang-once')));

    const signalledAt = performance.now();
    const code = await workers.terminate(hung).exited;
    reportFigure(`SIGTERM → exit with a hung run (grace ${GRACE_MS} ms)`, performance.now() - signalledAt);
    expect(code).toBe(0);

    expect(await run.result()).toBe('resumed');
    reportFigure('SIGTERM → handed-back run finished elsewhere', performance.now() - signalledAt);
    expect(await client.getRun(run.id)).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect(Number(await redis.redis.get(keys.hangOnceAttempts))).toBe(2);
  });
});
