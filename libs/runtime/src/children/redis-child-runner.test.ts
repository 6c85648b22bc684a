import { randomUUID } from 'node:crypto';
import { emptyUsage } from '@flotilla/ir';
import { Queue } from 'bullmq';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { useRedis } from '../../../../test/support/redis.js';
import { createAgent } from '../agent/create-agent.js';
import { executeRun } from '../agent/execute-run.js';
import { createEmbeddedServices } from '../embedded/create-embedded-services.js';
import { InMemoryRunJournal } from '../embedded/in-memory-run-journal.js';
import { AgentQueues } from '../jobs/agent-queues.js';
import { bullmqPrefix, runIndexKeys, runKeys } from '../keys.js';
import type { ServedAgents } from '../registry/worker-registry.js';
import { RedisRunRecords } from '../runs/redis-run-records.js';
import { RedisChildRunner, type RedisChildRunnerOptions } from './redis-child-runner.js';

const fixture = useRedis(import.meta.filename);
const WIDTH = 4;
const Leaf = createAgent({ id: 'leaf', handler: async ({ n }: { n: number }) => n });
const Fan = createAgent({
  id: 'fan',
  handler: async () => Promise.all(Array.from({ length: WIDTH }, (_, n) => Leaf({ n }))),
});

let queues: AgentQueues | undefined;
afterAll(async () => {
  await queues?.close();
});

/** A parent run's job, as the client leaves it: its children become its BullMQ child jobs. */
async function parentJob(runId: string): Promise<{ queues: AgentQueues; records: RedisRunRecords }> {
  queues ??= new AgentQueues({
    connection: fixture.connect(),
    prefix: fixture.prefix,
    queueName: 'agents',
    logger: pino({ level: 'silent' }),
    role: 'test',
  });
  await queues.queueFor('fan').add('fan', {}, { jobId: runId });
  return { queues, records: new RedisRunRecords({ redis: fixture.redis, prefix: fixture.prefix }) };
}

/**
 * One execution of the parent on a worker (a runner of its own, as each execution has);
 * `pendingSteps`: the steps an earlier execution suspended on, as a replay loads them.
 */
async function execute(
  runId: string,
  deps: { queues: AgentQueues; records: RedisRunRecords },
  pendingSteps?: readonly string[],
  serving?: Pick<RedisChildRunnerOptions, 'served' | 'servedHere'>,
) {
  const children = new RedisChildRunner({
    redis: fixture.redis,
    prefix: fixture.prefix,
    queues: deps.queues,
    parentQueue: deps.queues.queueFor('fan').qualifiedName,
    records: deps.records,
    runId,
    rootRunId: runId,
    maxChildrenPerRun: 10,
    ...serving,
  });
  const journal = new InMemoryRunJournal([], pendingSteps);
  return executeRun({
    agent: Fan,
    input: {},
    services: { ...createEmbeddedServices({ runId, journal }), children },
  });
}

async function leafJobs(): Promise<number> {
  const queue = new Queue('agents/leaf', {
    connection: fixture.connect(),
    prefix: bullmqPrefix(fixture.prefix),
  });
  try {
    return (await queue.getJobs(['wait'])).length;
  } finally {
    await queue.close();
  }
}

/** A new parent's first execution, with the leaf jobs waiting before it. */
async function firstExecution() {
  const runId = randomUUID();
  const deps = await parentJob(runId);
  const before = await leafJobs();
  const outcome = await execute(runId, deps);
  return { runId, deps, before, outcome, pending: outcome.suspended?.pendingChildren ?? [] };
}

describe('RedisChildRunner, a fan-out', () => {
  it('creates, indexes, enqueues and knows every child of one tick', async () => {
    const { runId, deps, before, pending } = await firstExecution();
    expect(pending).toHaveLength(WIDTH);
    expect((await fixture.redis.smembers(runKeys(fixture.prefix, runId).children)).sort()).toEqual(
      [...pending].sort(),
    );
    const indexed = await fixture.redis.zrange(runIndexKeys(fixture.prefix, undefined).root(runId), 0, -1);
    expect(indexed.map((member) => member.slice(member.indexOf(':') + 1)).sort()).toEqual(
      [...pending].sort(),
    );
    for (const childRunId of pending)
      expect(await deps.records.get(childRunId)).toMatchObject({ status: 'queued', parentRunId: runId });
    expect((await leafJobs()) - before).toBe(WIDTH);
    // No scope layers on the chain: none in the job data.
    const queue = new Queue('agents/leaf', {
      connection: fixture.connect(),
      prefix: bullmqPrefix(fixture.prefix),
    });
    const job = await queue.getJob(pending[0] ?? '').finally(() => queue.close());
    expect(job?.data).toMatchObject({ input: JSON.stringify({ n: 0 }), child: { parentRunId: runId } });
    expect(job?.data).not.toHaveProperty('scope');
  });

  it('after a crash between the jobs and the children set, enqueues each child again without a second job', async () => {
    const { runId, deps, before, outcome: first } = await firstExecution();
    // What a crash after the jobs but before the tick's SADD leaves: records and jobs, no set.
    await fixture.redis.del(runKeys(fixture.prefix, runId).children);
    const second = await execute(runId, deps);
    expect(second.suspended?.pendingChildren).toEqual(first.suspended?.pendingChildren);
    expect(await fixture.redis.scard(runKeys(fixture.prefix, runId).children)).toBe(WIDTH);
    expect((await leafJobs()) - before).toBe(WIDTH);
    const dependencies = await (await deps.queues.queueFor('fan').getJob(runId))?.getDependenciesCount();
    expect(dependencies).toMatchObject({ unprocessed: WIDTH });
  });

  it('replays from the records of the children it suspended on: ended ones settle, the others stay one job each', async () => {
    const { runId, deps, before, outcome: first, pending } = await firstExecution();
    const steps = first.suspended?.pendingSteps ?? [];
    expect(steps).toHaveLength(WIDTH);
    const ended = { status: 'succeeded' as const, usage: emptyUsage(), modelCalls: 0 };
    const endChild = async (n: number) => {
      const record = await deps.records.get(pending[n] ?? '');
      expect(
        await deps.records.finish(pending[n] ?? '', record?.callPath ?? '', { ...ended, output: n }),
      ).toBe(true);
    };
    // Half of the children ended: the replay waits on the others, enqueuing none of them again.
    await endChild(0);
    await endChild(1);
    const second = await execute(runId, deps, steps);
    expect([...(second.suspended?.pendingChildren ?? [])].sort()).toEqual([pending[2], pending[3]].sort());
    expect((await leafJobs()) - before).toBe(WIDTH);
    await endChild(2);
    await endChild(3);
    const third = await execute(runId, deps, second.suspended?.pendingSteps);
    expect(third.suspended).toBeUndefined();
    expect(third.output).toEqual([0, 1, 2, 3]);
    expect((await leafJobs()) - before).toBe(WIDTH);
    expect(await fixture.redis.scard(runKeys(fixture.prefix, runId).children)).toBe(WIDTH);
  });

  it('marks a child no live worker serves, and asks no registry for an agent this worker serves', async () => {
    const asked: string[] = [];
    const nobody = {
      serves: async (agentId: string) => {
        asked.push(agentId);
        return false;
      },
    } as unknown as ServedAgents;
    const runId = randomUUID();
    const deps = await parentJob(runId);
    const marked = await execute(runId, deps, undefined, { served: nobody });
    expect(asked).toEqual(Array(WIDTH).fill('leaf'));
    for (const childRunId of marked.suspended?.pendingChildren ?? [])
      expect((await deps.records.get(childRunId))?.waitingFor).toEqual({ kind: 'worker', detail: 'leaf' });
    asked.length = 0;
    const here = randomUUID();
    const served = await execute(here, await parentJob(here), undefined, {
      served: nobody,
      servedHere: new Map([['leaf', Leaf]]),
    });
    expect(asked).toEqual([]);
    for (const childRunId of served.suspended?.pendingChildren ?? [])
      expect((await deps.records.get(childRunId))?.waitingFor).toBeUndefined();
  });
});
