/**
 * A suspended run's deadline holds while no worker executes it: the parent waits (holding no
 * slot) on a child whose worker froze (SIGSTOP, so the child's own timer cannot fire either);
 * the parent's deadline job, run by the other worker, ends it `failed` with `RunTimeoutError`
 * and `result()` settles while the child is still held by the frozen worker.
 */
import { fileURLToPath } from 'node:url';
import { RunTimeoutError } from '@flotilla/runtime';
import { createClient, type FlotillaClient } from '@flotilla/runtime/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useRedis } from '../support/redis.js';
import { expectRunKeysToExpire } from '../support/run-key-expiry.js';
import { waitForKey } from '../support/wait-for-key.js';
import { WorkerProcesses } from '../support/worker-processes.js';
import { faultKeys } from './fixtures/fault-agents.js';
import { reportFigure } from './fixtures/figures.js';

const redis = useRedis(import.meta.filename);
const program = fileURLToPath(new URL('./fixtures/fault-worker.ts', import.meta.url));
let workers: WorkerProcesses;
let client: FlotillaClient;

beforeAll(async () => {
  workers = new WorkerProcesses(program, { REDIS_URL: redis.url, FLOTILLA_PREFIX: redis.prefix });
  // BullMQ's default 30 s lock: the frozen worker's child is not taken over during the test.
  await Promise.all([workers.start(), workers.start()]);
  client = createClient({ connection: redis.url, prefix: redis.prefix });
});

afterAll(async () => {
  await client?.close();
  await workers?.stop();
});

describe('a run suspended on a child past its deadline', () => {
  it('fails with RunTimeoutError through its deadline job while the child is still held', async () => {
    const run = await client.submit('parent', {}, { timeoutMs: 1000 });
    const frozen = Number(await waitForKey(redis.redis, faultKeys(redis.prefix).hanging('hang-child')));
    process.kill(frozen, 'SIGSTOP');
    try {
      const error = await run.result().catch((caught: unknown) => caught);
      expect(RunTimeoutError.is(error)).toBe(true);
      const record = await client.getRun(run.id);
      expect(record).toMatchObject({ status: 'failed', error: { name: 'RunTimeoutError' } });
      reportFigure(
        'suspended parent: deadline → record failed (deadline job, 1 s margin)',
        (record?.endedAt ?? 0) - Number(record?.error?.data?.deadline),
      );
      // Not the child's failure that ended it: the frozen worker still holds the child.
      const [childId = ''] = await redis.redis.smembers(`${redis.prefix}:run:{r:${run.id}}:children`);
      expect(await client.getRun(childId)).toMatchObject({ status: 'running' });
      // The parent was ended by its deadline job, not by an attempt: no key of it lives forever.
      await expectRunKeysToExpire(redis.redis, redis.prefix, [run.id]);
    } finally {
      await workers.kill(frozen);
    }
  });
});
