/**
 * Routing runs by agent across real worker processes (issue 13): worker A serves
 * alpha/root/leaf/hold-root/holder, worker B beta/mid/hold-mid/holder. A run is only ever taken
 * by a worker serving its agent — roots and children (a `root` tree spans both workers) — a run
 * no live worker serves waits (`waitingFor: worker`) until one comes up, a SIGKILLed worker's run
 * is taken over by another worker serving its agent, a cross-queue tree cancels whole, and the
 * worker registry lists the live workers and drops a killed one.
 */
import { fileURLToPath } from 'node:url';
import { createClient, type FlotillaClient, type RunRecord } from '@flotilla/runtime/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FleetQueues } from '../support/fleet-queues.js';
import { useRedis } from '../support/redis.js';
import { waitUntil } from '../support/wait-until.js';
import { WorkerProcesses } from '../support/worker-processes.js';
import { holderPidKey, releaseKey } from './fixtures/routing-agents.js';

const redis = useRedis(import.meta.filename);
const program = fileURLToPath(new URL('./fixtures/routing-worker.ts', import.meta.url));
const A_AGENTS = 'alpha,root,leaf,hold-root,holder';
const B_AGENTS = 'beta,mid,hold-mid,holder';
let workers: WorkerProcesses;
let client: FlotillaClient;
let queues: FleetQueues;
let pidA: number;
let pidB: number;

beforeAll(async () => {
  workers = new WorkerProcesses(program, { REDIS_URL: redis.url, FLOTILLA_PREFIX: redis.prefix });
  const [a, b] = await Promise.all([
    workers.start({ AGENTS: A_AGENTS, FLOTILLA_BUILD_ID: 'build-a' }),
    workers.start({ AGENTS: B_AGENTS }),
  ]);
  pidA = a.pid ?? 0;
  pidB = b.pid ?? 0;
  client = createClient({ connection: redis.url, prefix: redis.prefix });
  queues = new FleetQueues(redis.connect(), redis.prefix);
});
afterAll(async () => {
  await queues?.close();
  await client?.close();
  await workers?.stop();
});

function statusOf(runId: string, statuses: RunRecord['status'][]): Promise<RunRecord> {
  return waitUntil(
    async () => {
      const record = await client.getRun(runId);
      return record && statuses.includes(record.status) ? record : undefined;
    },
    { what: `run ${runId} to be ${statuses.join('/')}` },
  );
}

describe('two workers with disjoint agent sets', () => {
  it('run every submission on a worker serving its agent, children included: none fails', async () => {
    const alphas = await Promise.all([1, 2, 3].map((n) => client.submit('alpha', { n })));
    const betas = await Promise.all([1, 2, 3].map((n) => client.submit('beta', { n })));
    const trees = await Promise.all([1, 2].map(() => client.submit('root', {})));
    for (const run of alphas) expect(await run.result()).toMatchObject({ agent: 'alpha', pid: pidA });
    for (const run of betas) expect(await run.result()).toMatchObject({ agent: 'beta', pid: pidB });
    for (const run of trees) {
      // root on A → 2 × mid on B → leaf on A.
      expect(await run.result()).toEqual({
        pid: pidA,
        mids: [1, 2].map((n) => ({ pid: pidB, leaf: { agent: 'leaf', pid: pidA, input: { n } } })),
      });
    }
    const records = await Promise.all([...alphas, ...betas, ...trees].map((run) => client.getRun(run.id)));
    expect(records.map((record) => record?.status)).toEqual(Array(8).fill('succeeded'));
  });
});

describe('the worker registry', () => {
  it('lists each live worker with its agents, concurrency and build', async () => {
    // The registry holds what the last heartbeat (each second) said: the runs of the test
    // before may have ended after it, so the listing is read once a heartbeat says A is idle.
    const listed = await vi.waitFor(
      async () => {
        const workers = await client.listWorkers();
        expect(workers.find((worker) => worker.pid === pidA)?.activeRuns).toBe(0);
        return workers;
      },
      { timeout: 10_000, interval: 200 },
    );
    const byPid = new Map(listed.map((worker) => [worker.pid, worker]));
    expect(byPid.get(pidA)?.agents.sort()).toEqual(A_AGENTS.split(',').sort());
    expect(byPid.get(pidA)).toMatchObject({
      concurrency: 2,
      buildId: 'build-a',
      activeRuns: 0,
    });
    expect(byPid.get(pidB)?.agents.sort()).toEqual(B_AGENTS.split(',').sort());
    expect(byPid.get(pidB)?.buildId).toBeUndefined();
    for (const worker of listed) expect(worker.expiresAt).toBeGreaterThan(worker.heartbeatAt);
  });
});

describe('a run of an agent no live worker serves', () => {
  it('waits with waitingFor worker, then runs once a worker serving it starts', async () => {
    const run = await client.submit('gamma', { late: true });
    expect(await client.getRun(run.id)).toMatchObject({
      status: 'queued',
      waitingFor: { kind: 'worker', detail: 'gamma' },
    });
    const gamma = await workers.start({ AGENTS: 'gamma' });
    expect(await run.result()).toMatchObject({ agent: 'gamma', pid: gamma.pid });
    expect((await client.getRun(run.id))?.waitingFor).toBeUndefined();
    // Stopped gracefully: its job completes (a SIGKILL right after the run ended could leave
    // it active, with no other worker of that queue to notice the lapsed lock).
    await workers.terminate(gamma.pid ?? 0).exited;
  });
});

describe('cancel of a tree whose runs sit in several agent queues', () => {
  it('ends every run of it cancelled and leaves no job in any queue', async () => {
    const name = 'cancel-tree';
    const run = await client.submit('hold-root', { name });
    await waitUntil(async () => (await redis.redis.get(holderPidKey(redis.prefix, name))) ?? undefined, {
      what: 'the holder to start',
    });
    await client.cancel(run.id);
    await expect(run.result()).rejects.toMatchObject({ name: 'AbortError' });
    const tree = [run.id];
    for (let index = 0; index < tree.length; index++)
      tree.push(...(await redis.redis.smembers(`${redis.prefix}:run:{r:${tree[index]}}:children`)));
    expect(tree).toHaveLength(3);
    const records = await Promise.all(tree.map((id) => statusOf(id, ['succeeded', 'failed', 'cancelled'])));
    expect(records.map((record) => [record.agentId, record.status])).toEqual([
      ['hold-root', 'cancelled'],
      ['hold-mid', 'cancelled'],
      ['holder', 'cancelled'],
    ]);
    const counts = await waitUntil(
      async () => {
        const current = await queues.getJobCounts('active', 'wait', 'delayed', 'waiting-children');
        return Object.values(current).every((count) => count === 0) ? current : undefined;
      },
      { what: 'every agent queue to be empty' },
    );
    expect(counts).toEqual({ active: 0, wait: 0, delayed: 0, 'waiting-children': 0 });
  });
});

describe('a SIGKILLed worker', () => {
  it('has its run taken over by another worker serving the agent, and drops out of the registry', async () => {
    const name = 'takeover';
    const run = await client.submit('holder', { name });
    const first = Number(
      await waitUntil(async () => (await redis.redis.get(holderPidKey(redis.prefix, name))) ?? undefined, {
        what: 'the holder to start',
      }),
    );
    expect([pidA, pidB]).toContain(first);
    await redis.redis.del(holderPidKey(redis.prefix, name));
    await workers.kill(first);
    const second = Number(
      await waitUntil(async () => (await redis.redis.get(holderPidKey(redis.prefix, name))) ?? undefined, {
        what: 'another worker to take the run over',
      }),
    );
    expect(second).toBe(first === pidA ? pidB : pidA);
    await redis.redis.set(releaseKey(redis.prefix, name), '1');
    expect(await run.result()).toEqual({ agent: 'holder', pid: second });
    expect((await client.getRun(run.id))?.attempts).toBe(2);
    const remaining = await waitUntil(
      async () => {
        const pids = (await client.listWorkers()).map((worker) => worker.pid);
        return pids.includes(first) ? undefined : pids;
      },
      { what: 'the killed worker to drop out of the registry' },
    );
    expect(remaining).toEqual([second]);
  });
});
