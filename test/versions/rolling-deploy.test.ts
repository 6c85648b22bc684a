/**
 * Worker versioning across real worker processes (issue 24): trees suspended on pinned workers of
 * build A stay on build A through a rolling deploy to an incompatible build B (a changed parent
 * that would fail replaying them), while new trees start on B; a pinned run no live worker can
 * resume says so (`waitingFor: { kind: 'build' }`) until one comes up; a build declaring A
 * compatible, its change behind `patched()` right before the child call A's trees are suspended
 * on, finishes A's trees on the old branch and runs new trees on the new one. Every tree's tool runs once and no run fails with a NonDeterminismError.
 */
import { fileURLToPath } from 'node:url';
import { createClient, type FlotillaClient, type RunRecord } from '@flotilla/runtime/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useRedis } from '../support/redis.js';
import { waitUntil } from '../support/wait-until.js';
import { WorkerProcesses } from '../support/worker-processes.js';
import { holderKey, releaseKey, toolCountsKey } from './fixtures/version-agents.js';

const redis = useRedis(import.meta.filename);
const program = fileURLToPath(new URL('./fixtures/version-worker.ts', import.meta.url));
const TREES = 20;
let workers: WorkerProcesses;
let client: FlotillaClient;

beforeAll(() => {
  workers = new WorkerProcesses(program, {
    REDIS_URL: redis.url,
    FLOTILLA_PREFIX: redis.prefix,
    FLOTILLA_VERSIONING: 'pinned',
  });
  client = createClient({ connection: redis.url, prefix: redis.prefix });
});
afterAll(async () => {
  await client?.close();
  await workers?.stop();
});

const build = (id: string, version: string, env: Record<string, string> = {}) =>
  workers.start({ FLOTILLA_BUILD_ID: id, TREE_VERSION: version, ...env });

/** The waiter child run of each tree, once every one of them waits for its signal. */
async function waitingChildren(rootIds: readonly string[]): Promise<RunRecord[]> {
  return Promise.all(
    rootIds.map((rootRunId) =>
      waitUntil(
        async () => {
          const { runs } = await client.listRuns({ rootRunId });
          return runs.find((run) => run.runId !== rootRunId && run.waitingFor?.kind === 'signal');
        },
        { what: `the child of tree ${rootRunId} to wait for its signal`, timeoutMs: 60_000 },
      ),
    ),
  );
}

async function submitTrees(from: number, count: number): Promise<string[]> {
  const runs = await Promise.all(
    Array.from({ length: count }, (_, index) => client.submit('tree', { n: from + index })),
  );
  return runs.map((run) => run.id);
}

async function finish(rootIds: readonly string[], children: readonly RunRecord[]) {
  for (const child of children) await client.signal(child.runId, 'go', { n: 0 });
  return Promise.all(rootIds.map((runId) => client.run(runId).result()));
}

function workerBy(pid: number | undefined) {
  return async () => (await client.listWorkers()).find((worker) => worker.pid === pid);
}

describe('a rolling deploy to an incompatible build', () => {
  it('drains the old trees on a remaining old worker while new trees start on the new build', async () => {
    const [a1, a2] = await Promise.all([build('A', 'v1'), build('A', 'v1')]);
    const oldTrees = await submitTrees(0, TREES);
    const oldChildren = await waitingChildren(oldTrees);
    for (const runId of [...oldTrees, ...oldChildren.map((child) => child.runId)]) {
      expect(await client.getRun(runId)).toMatchObject({ pinnedBuild: 'A', buildId: 'A' });
    }

    // Deploy B (its parent calls its child with other props: replaying an A tree on it fails
    // with NonDeterminismError) and retire one A worker; the other stays and stops taking new trees.
    const b = await build('B', 'v2');
    await workers.terminate(a1.pid ?? 0).exited;
    await waitUntil(async () => ((await workerBy(a2.pid)())?.draining?.includes('tree') ? true : undefined), {
      what: 'the remaining build-A worker to leave new trees to build B',
    });
    const newTrees = await submitTrees(100, 5);
    const newChildren = await waitingChildren(newTrees);
    for (const runId of [...newTrees, ...newChildren.map((child) => child.runId)]) {
      expect(await client.getRun(runId)).toMatchObject({ pinnedBuild: 'B', buildId: 'B' });
    }

    const oldResults = await finish(oldTrees, oldChildren);
    for (const result of oldResults)
      expect(result).toMatchObject({ build: 'A', branch: 'old', child: { shape: 1, build: 'A' } });
    const newResults = await finish(newTrees, newChildren);
    for (const result of newResults)
      expect(result).toMatchObject({ build: 'B', branch: 'new', child: { shape: 2, build: 'B' } });

    await expectAllSucceededAndToolsRanOnce([...oldTrees, ...newTrees]);
    await workers.terminate(b.pid ?? 0).exited;
    await workers.terminate(a2.pid ?? 0).exited;
  });
});

describe('a rolling deploy to a compatible build with a patched() change', () => {
  it('finishes the old trees on the new build taking the old branch; new trees take the new branch', async () => {
    const a = await build('A2', 'v1');
    const oldTrees = await submitTrees(200, TREES);
    const oldChildren = await waitingChildren(oldTrees);

    // Every A2 worker goes before a compatible one comes: the old trees wait for their build.
    await workers.terminate(a.pid ?? 0).exited;
    await waitUntil(
      async () => ((await client.getRun(oldTrees[0] ?? ''))?.waitingFor?.kind === 'build' ? true : undefined),
      { what: 'the old trees to wait for build A2' },
    );
    for (const runId of oldTrees) {
      expect((await client.getRun(runId))?.waitingFor).toEqual({ kind: 'build', detail: 'A2' });
    }
    const c = await build('C', 'v3', { FLOTILLA_COMPATIBLE_WITH: 'A2' });
    await waitUntil(
      async () => ((await client.getRun(oldTrees[0] ?? ''))?.waitingFor === undefined ? true : undefined),
      { what: 'the old trees to stop waiting for build A2' },
    );
    const newTrees = await submitTrees(300, 5);
    const newChildren = await waitingChildren(newTrees);
    for (const runId of newTrees) expect(await client.getRun(runId)).toMatchObject({ pinnedBuild: 'C' });

    const oldResults = await finish(oldTrees, oldChildren);
    for (const result of oldResults)
      expect(result).toMatchObject({ build: 'C', branch: 'old', child: { shape: 1, build: 'C' } });
    for (const runId of oldTrees)
      expect(await client.getRun(runId)).toMatchObject({ pinnedBuild: 'A2', buildId: 'A2' });
    const newResults = await finish(newTrees, newChildren);
    for (const result of newResults)
      expect(result).toMatchObject({ build: 'C', branch: 'new', child: { shape: 2, build: 'C' } });

    await expectAllSucceededAndToolsRanOnce([...oldTrees, ...newTrees]);
    await workers.terminate(c.pid ?? 0).exited;
  });
});

describe('a crash under pinning', () => {
  it('hands a pinned run over to another worker of its build, never to one of another build', async () => {
    const a1 = await build('K1', 'v1');
    const run = await client.submit('hold', {});
    const store = redis.connect();
    await waitUntil(
      async () => ((await store.get(holderKey(redis.prefix, run.id))) === String(a1.pid) ? true : undefined),
      {
        what: 'the hold run to execute on the first K1 worker',
      },
    );
    const [a2, other] = await Promise.all([build('K1', 'v1'), build('K2', 'v1')]);
    await workers.kill(a1.pid ?? 0);
    await waitUntil(
      async () => ((await store.get(holderKey(redis.prefix, run.id))) === String(a2.pid) ? true : undefined),
      {
        what: 'the other K1 worker to take the run over',
        timeoutMs: 60_000,
      },
    );
    await store.set(releaseKey(redis.prefix), '1');
    expect(await run.result()).toEqual({ build: 'K1', pid: a2.pid });
    expect(await client.getRun(run.id)).toMatchObject({ pinnedBuild: 'K1', buildId: 'K1', attempts: 2 });
    await Promise.all([a2, other].map((child) => workers.terminate(child.pid ?? 0).exited));
  });
});

/** No run of the trees failed (no NonDeterminismError anywhere), and each tree's tool ran once. */
async function expectAllSucceededAndToolsRanOnce(rootIds: readonly string[]): Promise<void> {
  for (const rootRunId of rootIds) {
    const { runs } = await client.listRuns({ rootRunId });
    expect(runs.map((run) => run.status)).toEqual(['succeeded', 'succeeded']);
  }
  const counts = await redis.connect().hgetall(toolCountsKey(redis.prefix));
  const ofTrees = Object.entries(counts).filter(([key]) => rootIds.some((id) => key.startsWith(`${id}:`)));
  expect(ofTrees).toHaveLength(rootIds.length);
  expect(new Set(ofTrees.map(([, count]) => count))).toEqual(new Set(['1']));
}
