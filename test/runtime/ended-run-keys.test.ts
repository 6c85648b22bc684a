/**
 * Runs that end without an execution attempt of their own (a cancel of a waiting run or of a
 * suspended tree, a deadline that passes while the run waits) leave no key behind without an
 * expiry: their memory is deleted, as when a worker ends a run (ARCHITECTURE.md §5), and their
 * children set (the tree the run list shows) is kept for the record's retention. Before
 * `finish-run-8` these runs kept their memory and children set forever.
 */
import { createAgent, equipMemory, RunTimeoutError, waitForSignal } from '@flotilla/runtime';
import { describe, expect, it } from 'vitest';
import { failureOf } from '../support/failure-of.js';
import { useRedis } from '../support/redis.js';
import { expectRunKeysToExpire } from '../support/run-key-expiry.js';
import { waitUntil } from '../support/wait-until.js';
import { useWorker } from './fixtures/in-process-worker.js';

const redis = useRedis(import.meta.filename);

/** Remembers that it began, then waits for the signal `name` (forever, in these tests). */
const Keeper = createAgent({
  id: 'keeper',
  handler: async ({ name }: { name: string }) => {
    const [, setBegun] = equipMemory('begun', 0);
    setBegun(1);
    return waitForSignal(name);
  },
});

/** Remembers that it began, then calls `keeper` as a child run (suspended until it ends). */
const KeeperParent = createAgent({
  id: 'keeper-parent',
  handler: async ({ name }: { name: string }) => {
    const [, setBegun] = equipMemory('begun', 0);
    setBegun(1);
    return { child: await Keeper({ name }) };
  },
});

const fixture = useWorker(redis, { agents: [Keeper, KeeperParent] });

const runKeyPattern = (runId: string) => `${redis.prefix}:run:{r:${runId}}:`;
const memoryKeysOf = (runId: string) => redis.redis.keys(`${runKeyPattern(runId)}memory*`);

/** Once the run is `waiting` with its memory stored (the suspension follows the memory write). */
async function waitingWithMemory(runId: string): Promise<void> {
  await waitUntil(
    async () => {
      const record = await fixture.client.getRun(runId);
      return record?.status === 'waiting' && (await memoryKeysOf(runId)).length > 0 ? true : undefined;
    },
    { what: `run ${runId} waiting with its memory stored` },
  );
}

/** The run ids of `rootRunId`'s tree, from the children sets. */
async function treeOf(rootRunId: string): Promise<string[]> {
  const tree = [rootRunId];
  for (let index = 0; index < tree.length; index++)
    tree.push(...(await redis.redis.smembers(`${runKeyPattern(tree[index] as string)}children`)));
  return tree;
}

describe('a run waiting for a signal', () => {
  it('cancelled: its memory is deleted and every other key of it expires', async () => {
    const run = await fixture.client.submit('keeper', { name: 'never' });
    await waitingWithMemory(run.id);
    await fixture.client.cancel(run.id);
    expect(await failureOf(run)).toMatchObject({ name: 'AbortError' });
    expect((await fixture.client.getRun(run.id))?.status).toBe('cancelled');
    expect(await memoryKeysOf(run.id)).toEqual([]);
    await expectRunKeysToExpire(redis.redis, redis.prefix, [run.id]);
  });

  it('past its deadline: its memory is deleted and every other key of it expires', async () => {
    const run = await fixture.client.submit('keeper', { name: 'never' }, { timeoutMs: 1500 });
    await waitingWithMemory(run.id);
    expect(RunTimeoutError.is(await failureOf(run))).toBe(true);
    expect((await fixture.client.getRun(run.id))?.status).toBe('failed');
    expect(await memoryKeysOf(run.id)).toEqual([]);
    await expectRunKeysToExpire(redis.redis, redis.prefix, [run.id]);
  });
});

describe('a suspended tree', () => {
  it('cancelled: every run of it keeps no key without an expiry; the children sets stay readable', async () => {
    const run = await fixture.client.submit('keeper-parent', { name: 'never' });
    const tree = await waitUntil(
      async () => {
        const ids = await treeOf(run.id);
        return ids.length === 2 ? ids : undefined;
      },
      { what: 'the child run to be enqueued' },
    );
    await Promise.all(tree.map((runId) => waitingWithMemory(runId)));
    await fixture.client.cancel(run.id);
    expect(await failureOf(run)).toMatchObject({ name: 'AbortError' });
    const records = await Promise.all(tree.map((runId) => fixture.client.getRun(runId)));
    expect(records.map((record) => record?.status)).toEqual(['cancelled', 'cancelled']);
    for (const runId of tree) expect(await memoryKeysOf(runId)).toEqual([]);
    await expectRunKeysToExpire(redis.redis, redis.prefix, tree);
    // Kept for the retention, so the run list can still show the cancelled tree.
    expect(await treeOf(run.id)).toEqual(tree);
  });
});
