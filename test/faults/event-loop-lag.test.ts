/**
 * A long synchronous stretch below the watchdog's threshold does not kill the worker, but the
 * next `/healthz` reports it: 503 with the loop delay it saw (from half of
 * FLOTILLA_EVENT_LOOP_BLOCK_MS), then 200 again once the loop is responsive.
 */
import { createClient, type FlotillaClient } from '@flotilla/runtime/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker, type WorkerProcess } from '../apps/support/worker-process.js';
import { useRedis } from '../support/redis.js';

const redis = useRedis(import.meta.filename);
const BLOCK_MS = 10_000;
const STALL_MS = 6_000; // past half the threshold, well short of it
let app: WorkerProcess;
let client: FlotillaClient;

beforeAll(async () => {
  app = await startWorker({
    REDIS_URL: redis.url,
    FLOTILLA_PREFIX: redis.prefix,
    FLOTILLA_AGENTS: './test/faults/fixtures/spin-agents.ts',
    FLOTILLA_WORKER_CONCURRENCY: '1',
    FLOTILLA_EVENT_LOOP_BLOCK_MS: String(BLOCK_MS),
    // A stall longer than the job lock (default 5 s) loses the run to a new attempt (fenced,
    // see fenced-attempts.test.ts); this suite is about the health report, so the lock outlasts it.
    FLOTILLA_LOCK_DURATION_MS: String(STALL_MS * 2),
    LOG_LEVEL: 'info', // startWorker waits for the 'worker ready' line
  });
  client = createClient({ connection: redis.url, prefix: redis.prefix });
});

afterAll(async () => {
  await client?.close();
  await app?.stop();
});

async function health(): Promise<{ status: number; body: { healthy: boolean; eventLoopDelayMs: number } }> {
  const response = await fetch(`http://127.0.0.1:${app.healthPort}/healthz`);
  return {
    status: response.status,
    body: (await response.json()) as { healthy: boolean; eventLoopDelayMs: number },
  };
}

describe('an event loop blocked for less than the threshold', () => {
  it('keeps the worker alive, fails the next /healthz with the delay it saw, then recovers', async () => {
    expect((await health()).status).toBe(200);
    const run = await client.submit('stall', { ms: STALL_MS });
    expect(await run.result()).toBe('recovered');

    const after = await health();
    expect(after.status).toBe(503);
    expect(after.body.healthy).toBe(false);
    expect(after.body.eventLoopDelayMs).toBeGreaterThanOrEqual(BLOCK_MS / 2);

    const again = await health();
    expect(again.status).toBe(200);
    expect(again.body.eventLoopDelayMs).toBeLessThan(BLOCK_MS / 2);
    expect(app.child.exitCode).toBeNull();
  });
});
