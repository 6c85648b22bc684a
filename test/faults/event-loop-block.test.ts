/**
 * A synchronous infinite loop in an agent blocks its worker's event loop: the worker app's
 * watchdog thread notices (FLOTILLA_EVENT_LOOP_BLOCK_MS), logs `fatal` and kills the process,
 * whose `/healthz` stopped answering; another worker takes the run over (BullMQ stalled-job
 * recovery) and finishes it.
 */
import { createClient, type FlotillaClient } from '@flotilla/runtime/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker, type WorkerProcess } from '../apps/support/worker-process.js';
import { useRedis } from '../support/redis.js';
import { waitForKey } from '../support/wait-for-key.js';
import { faultKeys } from './fixtures/fault-agents.js';
import { reportFigure } from './fixtures/figures.js';

const redis = useRedis(import.meta.filename);
let apps: WorkerProcess[] = [];
let client: FlotillaClient;

beforeAll(async () => {
  const env = {
    REDIS_URL: redis.url,
    FLOTILLA_PREFIX: redis.prefix,
    FLOTILLA_AGENTS: './test/faults/fixtures/spin-agents.ts',
    FLOTILLA_WORKER_CONCURRENCY: '1',
    FLOTILLA_EVENT_LOOP_BLOCK_MS: '1000',
    FLOTILLA_LOCK_DURATION_MS: '2000',
    FLOTILLA_STALLED_INTERVAL_MS: '500',
    FLOTILLA_SHUTDOWN_TIMEOUT_MS: '5000',
    LOG_LEVEL: 'info',
  };
  apps = await Promise.all([startWorker(env), startWorker(env)]);
  client = createClient({ connection: redis.url, prefix: redis.prefix });
});

afterAll(async () => {
  await client?.close();
  await Promise.all(apps.map((app) => app.stop()));
});

describe('an agent that blocks the event loop', () => {
  it('fails /healthz, makes its worker exit, and the run is finished by another worker', async () => {
    const keys = faultKeys(redis.prefix);
    const run = await client.submit('spin', {});
    const pid = Number(await waitForKey(redis.redis, keys.hanging('spin')));
    const blockedAt = performance.now();
    const blocked = apps.find((app) => app.child.pid === pid);
    if (!blocked) throw new Error(`the spinning process ${pid} is not one of the test's workers`);

    const probe = await fetch(`http://127.0.0.1:${blocked.healthPort}/healthz`, {
      signal: AbortSignal.timeout(500),
    }).then(
      (response) => response.status,
      () => 'no answer',
    );
    expect(probe).not.toBe(200);

    const exit = await blocked.exited;
    reportFigure(
      'loop blocked → worker exited (FLOTILLA_EVENT_LOOP_BLOCK_MS 1000)',
      performance.now() - blockedAt,
    );
    expect(exit.signal).toBe('SIGKILL');
    const fatal = exit.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg: string })
      .find((line) => line.level === 60);
    expect(fatal?.msg).toMatch(/^event loop blocked/);

    expect(await run.result()).toBe('survived');
    reportFigure(
      'loop blocked → run finished by the other worker (lock 2000 ms)',
      performance.now() - blockedAt,
    );
    expect(await client.getRun(run.id)).toMatchObject({ status: 'succeeded', attempts: 2 });
  });
});
