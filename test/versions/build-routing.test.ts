/**
 * Routing by build (worker versioning), with in-process workers: a pinned worker pins the root
 * runs it takes first to its build, with their children, and they live in the build's queues; an
 * unpinned worker records its build but pins nothing; a pinned run no live worker can resume says
 * `waitingFor: { kind: 'build' }` in getRun and listRuns until a compatible worker comes up, which
 * then finishes it, and the `flotilla_runs_waiting{kind="build"}` gauge counts it meanwhile; a
 * cancel removes a pinned run's job from its build queue.
 */
import { createAgent, waitForSignal } from '@flotilla/runtime';
import { createClient, type FlotillaClient, type RunRecord } from '@flotilla/runtime/client';
import { WaitingRunsReport } from '@flotilla/runtime/internals';
import { createWorker, type FlotillaWorker } from '@flotilla/runtime/worker';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FleetQueues } from '../support/fleet-queues.js';
import { useRedis } from '../support/redis.js';
import { waitUntil } from '../support/wait-until.js';

const redis = useRedis(import.meta.filename);
const Gate = createAgent({
  id: 'gate',
  handler: async (_input: Record<string, never>) => {
    await waitForSignal('go');
    return 'opened';
  },
});
const Parent = createAgent({ id: 'parent', handler: async () => ({ child: await Gate({}) }) });
let client: FlotillaClient;
let queues: FleetQueues;
const started: FlotillaWorker[] = [];

beforeAll(() => {
  client = createClient({ connection: redis.url, prefix: redis.prefix });
  queues = new FleetQueues(redis.connect(), redis.prefix);
});
afterEach(async () => {
  await Promise.all(started.splice(0).map((worker) => worker.close()));
});
afterAll(async () => {
  await queues?.close();
  await client?.close();
});

async function worker(options: {
  buildId: string;
  versioning?: 'pinned' | 'unpinned';
  compatibleWith?: string[];
}): Promise<FlotillaWorker> {
  const created = createWorker({
    agents: [Parent, Gate],
    connection: redis.url,
    prefix: redis.prefix,
    logger: pino({ level: 'silent' }),
    ...options,
  });
  started.push(created);
  await created.waitUntilReady();
  return created;
}

/** The parent's child once it waits for its signal. */
function waitingChild(rootRunId: string): Promise<RunRecord> {
  return waitUntil(
    async () => {
      const { runs } = await client.listRuns({ rootRunId });
      return runs.find((run) => run.agentId === 'gate' && run.waitingFor?.kind === 'signal');
    },
    { what: `the child of ${rootRunId} to wait for its signal` },
  );
}

describe('a pinned worker', () => {
  it('pins a tree to its build, in the build queues; the tree waits for the build while none is live', async () => {
    const a = await worker({ buildId: 'A', versioning: 'pinned' });
    const run = await client.submit('parent', {}, { runId: 'pinned-1' });
    const child = await waitingChild(run.id);
    const parent = await waitUntil(
      async () => ((await client.getRun(run.id))?.status === 'waiting' ? client.getRun(run.id) : undefined),
      { what: 'the parent to wait for its child' },
    );
    expect(parent).toMatchObject({ buildId: 'A', pinnedBuild: 'A' });
    expect(parent?.waitingFor).toBeUndefined();
    expect(child).toMatchObject({ buildId: 'A', pinnedBuild: 'A' });
    // Both jobs live in their build queues; the parent's job in the agent queue is gone.
    expect(await queues.queue('parent', 'A').getJobState(run.id)).toBe('waiting-children');
    expect(await queues.queue('gate', 'A').getJobState(child.runId)).toBe('delayed');
    expect(await queues.queue('parent').getJob(run.id)).toBeUndefined();

    await a.close();
    const waiting = await waitUntil(
      async () =>
        (await client.getRun(run.id))?.waitingFor?.kind === 'build' ? client.getRun(run.id) : undefined,
      { what: 'the parent to wait for build A' },
    );
    expect(waiting?.waitingFor).toEqual({ kind: 'build', detail: 'A' });
    const listed = await client.listRuns({ rootRunId: run.id });
    expect(listed.runs.find((listedRun) => listedRun.runId === run.id)?.waitingFor).toEqual({
      kind: 'build',
      detail: 'A',
    });
    const tree = await client.getRunTree(run.id);
    expect(tree?.root.waitingFor).toEqual({ kind: 'build', detail: 'A' });
    // The child waits for its signal first: that is what it says.
    expect((await client.getRun(child.runId))?.waitingFor?.kind).toBe('signal');
    const gauge = new Map<string, number>();
    const target = {
      set: (labels: { agent: string; kind: string }, value: number) =>
        void gauge.set(`${labels.agent}/${labels.kind}`, value),
    };
    const report = new WaitingRunsReport({
      redis: redis.connect(),
      prefix: redis.prefix,
      servedAgents: ['parent', 'gate'],
      cacheMs: 0,
    });
    await report.report(target);
    expect(gauge.get('parent/build')).toBe(1);
    expect(gauge.get('gate/build')).toBe(0);

    // A build that declares A compatible resumes it: the wait clears, the tree finishes there.
    await worker({ buildId: 'B', versioning: 'pinned', compatibleWith: ['A'] });
    await waitUntil(
      async () => ((await client.getRun(run.id))?.waitingFor === undefined ? true : undefined),
      {
        what: 'the build wait to clear',
      },
    );
    await client.signal(child.runId, 'go', {});
    expect(await run.result()).toEqual({ child: 'opened' });
    expect(await client.getRun(run.id)).toMatchObject({
      status: 'succeeded',
      buildId: 'A',
      pinnedBuild: 'A',
    });
  });

  it('cancels a pinned tree: its jobs leave the build queues', async () => {
    await worker({ buildId: 'C', versioning: 'pinned' });
    const run = await client.submit('parent', {}, { runId: 'pinned-2' });
    const child = await waitingChild(run.id);
    await client.cancel(run.id);
    for (const id of [run.id, child.runId]) expect((await client.getRun(id))?.status).toBe('cancelled');
    expect(await queues.queue('parent', 'C').getJob(run.id)).toBeUndefined();
    expect(await queues.queue('gate', 'C').getJob(child.runId)).toBeUndefined();
  });
});

describe('pinned runs on one conversation', () => {
  it('go one after another: the run behind waits at the gate in its build queue and is woken there', async () => {
    await worker({ buildId: 'D', versioning: 'pinned' });
    const first = await client.submit('parent', {}, { runId: 'conv-1', conversationId: 'c-pinned' });
    const second = await client.submit('parent', {}, { runId: 'conv-2', conversationId: 'c-pinned' });
    const firstChild = await waitingChild(first.id);
    const behind = await waitUntil(
      async () => {
        const record = await client.getRun(second.id);
        return record?.waitingFor?.kind === 'conversation' ? record : undefined;
      },
      { what: 'the second run to wait behind the first on the conversation' },
    );
    expect(behind.pinnedBuild).toBe('D');
    expect(await queues.queue('parent', 'D').getJobState(second.id)).toBe('delayed');
    await client.signal(firstChild.runId, 'go', {});
    expect(await first.result()).toEqual({ child: 'opened' });
    await client.signal((await waitingChild(second.id)).runId, 'go', {});
    expect(await second.result()).toEqual({ child: 'opened' });
  });
});

describe('an unpinned worker', () => {
  it('records the build that started a run but pins nothing: its jobs stay in the agent queues', async () => {
    await worker({ buildId: 'U' });
    const run = await client.submit('parent', {}, { runId: 'unpinned-1' });
    const child = await waitingChild(run.id);
    const parent = await client.getRun(run.id);
    expect(parent).toMatchObject({ buildId: 'U' });
    expect(parent?.pinnedBuild).toBeUndefined();
    expect(child.pinnedBuild).toBeUndefined();
    expect(await queues.queue('gate').getJobState(child.runId)).toBe('delayed');
    await client.signal(child.runId, 'go', {});
    expect(await run.result()).toEqual({ child: 'opened' });
    // A run export names the build that ran it, for replay tests against the next build.
    expect((await client.exportRun(run.id))?.run.buildId).toBe('U');
  });
});
