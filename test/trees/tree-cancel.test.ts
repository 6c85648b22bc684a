/**
 * Cancel of a three-level tree across real worker processes (two workers, two slots each):
 * `cancel-root` → 3 `cancel-mid` → 2 `cancel-leaf` each, so four leaves block in a tool while
 * two wait for a slot. `suite.client.cancel(root)` must leave nothing running or queued and every run
 * record `cancelled`; running leaves see their abort signal fire.
 */
import type { RunRecord } from '@flotilla/runtime/client';
import { describe, expect, it } from 'vitest';
import { useRedis } from '../support/redis.js';
import { expectRunKeysToExpire } from '../support/run-key-expiry.js';
import { cancelKeys } from './fixtures/cancel-agents.js';
import { allZero, until } from './fixtures/until.js';
import { useTreeWorkers } from './fixtures/use-tree-workers.js';

const redis = useRedis(import.meta.filename);
const suite = useTreeWorkers(redis, { env: { CONCURRENCY: '2' } });

async function treeOf(rootRunId: string): Promise<string[]> {
  const tree = [rootRunId];
  for (let index = 0; index < tree.length; index++) {
    tree.push(...(await redis.redis.smembers(`${redis.prefix}:run:{r:${tree[index]}}:children`)));
  }
  return tree;
}

describe('when a three-level tree is cancelled mid-flight', () => {
  it('leaves nothing running or queued and every run cancelled', async () => {
    const keys = cancelKeys(redis.prefix);
    const run = await suite.client.submit('cancel-root', {});
    // Four leaves hold the four slots, blocked in their tool; two more leaves wait for a slot.
    await until(
      () => redis.redis.get(keys.blocked),
      (blocked) => blocked === '4',
    );
    const tree = await until(
      () => treeOf(run.id),
      (ids) => ids.length === 10,
    );
    // Waiting for a slot: in wait, or delayed for a moment after a full worker's idle queue
    // fetched one and handed it back (`create-worker.ts`, handBackWhenFull).
    const waiting = await suite.queue.getJobCounts('wait', 'delayed');
    expect((waiting.wait ?? 0) + (waiting.delayed ?? 0)).toBe(2);

    await suite.client.cancel(run.id);

    const records = await until(
      () => Promise.all(tree.map((id) => suite.client.getRun(id))),
      (all) => all.every((record) => record && ['succeeded', 'failed', 'cancelled'].includes(record.status)),
    );
    expect(records.map((record) => (record as RunRecord).status)).toEqual(Array(10).fill('cancelled'));
    expect(records.map((record) => record?.agentId).sort()).toEqual([
      ...Array(6).fill('cancel-leaf'),
      ...Array(3).fill('cancel-mid'),
      'cancel-root',
    ]);
    expect(await redis.redis.get(keys.unblocked)).toBe('4');
    const counts = await until(
      () => suite.queue.getJobCounts('active', 'wait', 'delayed', 'waiting-children', 'prioritized'),
      allZero,
    );
    expect(counts).toEqual({ active: 0, wait: 0, delayed: 0, 'waiting-children': 0, prioritized: 0 });
    await expect(run.result()).rejects.toMatchObject({ name: 'AbortError' });
    // Root and mids were suspended (ended by the cancel, not by an attempt), leaves ran: either
    // way no key of any run of the tree is left without an expiry.
    await expectRunKeysToExpire(redis.redis, redis.prefix, tree);
  });
});
