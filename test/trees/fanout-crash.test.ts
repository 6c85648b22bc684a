/**
 * 200 parent runs, each fanning out to five children (`Promise.all`) that call a
 * side-effecting tool, on three real worker processes; one worker is SIGKILLed in the middle,
 * while one of its child runs is inside the tool. Every parent must finish with the right
 * result, and counters kept in Redis by the fixtures must show that no completed tool
 * execution and no completed model turn ran twice: only the tool that was mid-execution at
 * the kill ran again (at-least-once, with a stable idempotency key).
 *
 * The victim runs one job at a time, so at the kill nothing but the hanging tool is in flight
 * on it (a turn or tool killed between finishing and being journaled would legitimately run
 * again, and the test could not tell).
 */
import { describe, expect, it } from 'vitest';
import { useRedis } from '../support/redis.js';
import { waitForKey } from '../support/wait-for-key.js';
import { fanoutKeys } from './fixtures/fanout-agents.js';
import { settledJobCounts } from './fixtures/settled-job-counts.js';
import { treeModelKeys } from './fixtures/tree-model.js';
import { useTreeWorkers } from './fixtures/use-tree-workers.js';

const PARENTS = 200;
const redis = useRedis(import.meta.filename);
const suite = useTreeWorkers(redis, {
  env: { LOCK_MS: '3000' },
  workers: [
    { WORKER_NAME: 'victim', CONCURRENCY: '1' },
    { WORKER_NAME: 'steady-1', CONCURRENCY: '4' },
    { WORKER_NAME: 'steady-2', CONCURRENCY: '4' },
  ],
  startTimeoutMs: 120_000,
});

describe('when a worker is killed while 200 parents fan out to 5 children each', () => {
  it('finishes every parent without repeating a completed tool execution or model turn', async () => {
    const keys = fanoutKeys(redis.prefix);
    const runs = await Promise.all(
      Array.from({ length: PARENTS }, (_, index) =>
        suite.client.submit<number>('fan-parent', { id: `p${index}` }),
      ),
    );
    await redis.redis.set(keys.hangArmed('victim'), '1');
    await suite.workers.kill(Number(await waitForKey(redis.redis, keys.hung)));

    const results = await Promise.all(runs.map((run) => run.result()));
    expect(results).toEqual(Array(PARENTS).fill(30)); // 2 × (1 + 2 + 3 + 4 + 5)

    const completed = Object.values(await redis.redis.hgetall(keys.completed)).map(Number);
    expect(completed).toHaveLength(PARENTS * 5);
    expect(completed.every((count) => count === 1)).toBe(true);
    const started = Object.values(await redis.redis.hgetall(keys.started)).map(Number);
    expect(started.filter((count) => count === 2)).toHaveLength(1); // the tool the kill interrupted
    expect(started.filter((count) => count === 1)).toHaveLength(PARENTS * 5 - 1);

    const turns = Object.values(await redis.redis.hgetall(treeModelKeys(redis.prefix).turns)).map(Number);
    expect(turns).toHaveLength(PARENTS * 5 * 2);
    expect(turns.every((count) => count === 1)).toBe(true);

    const counts = await settledJobCounts(suite.queue);
    expect(counts).toEqual({
      'waiting-children': 0,
      active: 0,
      wait: 0,
      delayed: 0,
    });
  }, 300_000);
});
