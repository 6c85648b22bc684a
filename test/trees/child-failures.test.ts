/**
 * Child run failures across real worker processes: the parent's await rejects with the
 * child's error (name, message and data preserved), the parent may catch it, an uncaught one
 * fails the parent, a child's retry policy runs it again, and after each of them no parent is
 * left in waiting-children.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { useRedis } from '../support/redis.js';
import { settledJobCounts } from './fixtures/settled-job-counts.js';
import { useTreeWorkers } from './fixtures/use-tree-workers.js';

const redis = useRedis(import.meta.filename);
const suite = useTreeWorkers(redis, { env: { CONCURRENCY: '2' } });

// Every test leaves no parent in waiting-children and nothing queued, whichever runs alone.
afterEach(async () => {
  // A job completes just after its record ended, so wait for the last ones to settle.
  expect(await settledJobCounts(suite.queue)).toEqual({
    'waiting-children': 0,
    active: 0,
    wait: 0,
    delayed: 0,
  });
});

describe('when a child throws a typed error', () => {
  it("rejects the parent's await with its name, message and data, and the parent may catch it", async () => {
    const run = await suite.client.submit('catching-parent', {});
    expect(await run.result()).toEqual({
      caught: true,
      name: 'QuotaExceededError',
      message: 'quota of 3 exceeded',
      limit: 3,
    });
  });

  it('fails the parent with the same error when the parent does not catch it', async () => {
    const run = await suite.client.submit('uncaught-parent', {});
    const error = await run.result().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'QuotaExceededError', message: 'quota of 7 exceeded', limit: 7 });
    expect(await suite.client.getRun(run.id)).toMatchObject({
      status: 'failed',
      error: { name: 'QuotaExceededError' },
    });
  });
});

describe("when a child's retry policy allows two attempts", () => {
  it('runs a child that failed once again, and the parent gets its result', async () => {
    const run = await suite.client.submit('flaky-parent', { key: uniqueKey() });
    expect(await run.result()).toBe('ok after 2 attempts');
    const [child] = await redis.redis.smembers(`${redis.prefix}:run:{r:${run.id}}:children`);
    expect(await suite.client.getRun(child ?? '')).toMatchObject({ status: 'succeeded', attempts: 2 });
  });
});

function uniqueKey(): string {
  return `flaky-${Date.now()}`;
}
