/**
 * Child agents as BullMQ child jobs across real worker processes (two workers, two slots
 * each): parents suspend and give their slot back, replay on any worker, and get their
 * children's results; scope, model, usage, memory and memo cross the job boundary; the depth
 * and fan-out limits and non-determinism fail with typed errors.
 */

import { randomUUID } from 'node:crypto';
import { FanOutLimitExceededError, MaxDepthExceededError, NonDeterminismError } from '@flotilla/runtime';
import { createClient, type FlotillaClient } from '@flotilla/runtime/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FleetQueues } from '../support/fleet-queues.js';
import { useRedis } from '../support/redis.js';
import { featureKeys } from './fixtures/feature-agents.js';
import { TreeWorkers } from './fixtures/tree-workers.js';
import { allZero, until } from './fixtures/until.js';

const redis = useRedis(import.meta.filename);
let workers: TreeWorkers;
let client: FlotillaClient;
let queue: FleetQueues;

beforeAll(async () => {
  workers = new TreeWorkers({
    REDIS_URL: redis.url,
    FLOTILLA_PREFIX: redis.prefix,
    CONCURRENCY: '2',
    FLOTILLA_MAX_CHILDREN_PER_RUN: '4',
  });
  await Promise.all([workers.start(), workers.start()]);
  client = createClient({ connection: redis.url, prefix: redis.prefix });
  queue = new FleetQueues(redis.connect(), redis.prefix);
});

afterAll(async () => {
  await queue?.close();
  await client?.close();
  await workers?.stop();
});

describe('when parents await children that await grandchildren', () => {
  it('finishes 50 three-level trees on four slots without deadlock', async () => {
    const runs = await Promise.all(
      Array.from({ length: 50 }, (_, value) => client.submit<string>('chain-parent', { value })),
    );
    const results = await Promise.all(runs.map((run) => run.result()));
    expect(results).toEqual(Array.from({ length: 50 }, (_, value) => `result ${(value + 1) * 10}`));
    const counts = await until(() => queue.getJobCounts('waiting-children', 'active', 'wait'), allZero);
    expect(counts).toEqual({
      'waiting-children': 0,
      active: 0,
      wait: 0,
    });
  });

  it('records each child run with its parent, root and callPath, and resumes without counting a new attempt', async () => {
    const run = await client.submit('chain-parent', { value: 1 });
    await run.result();
    const child = (await redis.redis.smembers(`${redis.prefix}:run:{r:${run.id}}:children`))[0] ?? '';
    expect(await client.getRun(child)).toMatchObject({
      agentId: 'chain-child',
      status: 'succeeded',
      output: 20,
      parentRunId: run.id,
      rootRunId: run.id,
      callPath: 'root/agent:chain-parent:0/g0/agent:chain-child:0',
    });
    expect(await client.getRun(run.id)).toMatchObject({ status: 'succeeded', attempts: 1 });
  });
});

describe('when a parent fans out to children that end together', () => {
  it('knows and lists every child, and is replayed once, after the last one ended', async () => {
    const key = randomUUID();
    const run = await client.submit('counted-wide-parent', { width: 4, key });
    expect(await run.result()).toEqual([0, 1, 2, 3]);
    // The first execution, then one replay: not one per child that ended.
    expect(await redis.redis.get(featureKeys(redis.prefix).executions(key))).toBe('2');
    const known = await redis.redis.smembers(`${redis.prefix}:run:{r:${run.id}}:children`);
    expect(known).toHaveLength(4);
    // The tree's list: the root and each child, every child run once.
    const listed = (await client.listRuns({ rootRunId: run.id })).runs.filter(
      ({ runId }) => runId !== run.id,
    );
    expect(listed.map((child) => child.runId).sort()).toEqual([...known].sort());
    expect(listed.every((child) => child.status === 'succeeded' && child.attempts === 1)).toBe(true);
  });
});

describe('scope', () => {
  it('gives a child the layers captured when it was enqueued, validated by its expectScope', async () => {
    const run = await client.submit('scope-parent', {}, { scope: [{ region: 'eu' }] });
    expect(await run.result()).toEqual({
      seen: { tenant: 'acme', region: 'eu' },
      strict: { error: 'ScopeError' },
    });
  });
});

describe('usage', () => {
  it("rolls children's tokens and model calls up into the root's record", async () => {
    const run = await client.submit('usage-parent', {});
    expect(await run.result()).toEqual(['ok', 'ok']);
    // Children have no model of their own: they inherit the parent's `tree-model` by id.
    expect(await client.getRun(run.id)).toMatchObject({
      status: 'succeeded',
      modelCalls: 3,
      usage: { promptTokens: 30, completionTokens: 6, totalTokens: 36 },
    });
  });
});

describe('memory and memo', () => {
  it('survive the suspension: the replay reads the stored values and the memo factory ran once', async () => {
    const run = await client.submit('memo-parent', {});
    expect(await run.result()).toEqual({ token: 'token-1', child: 'child done', executions: 2 });
    expect(await redis.redis.get(featureKeys(redis.prefix).memoFactoryRuns)).toBe('1');
  });
});

describe('when a replay asks for another child at a recorded position', () => {
  it('fails the run with NonDeterminismError naming the position', async () => {
    const run = await client.submit('nd-parent', {});
    const error = await run.result().catch((caught: unknown) => caught);
    expect(NonDeterminismError.is(error)).toBe(true);
    expect(error).toMatchObject({ position: 'root/agent:nd-parent:0/g0/agent:nd-child:0' });
  });
});

describe('limits', () => {
  it('stops unbounded recursion across child jobs with MaxDepthExceededError', async () => {
    const run = await client.submit('deep', { level: 0 });
    const error = await run.result().catch((caught: unknown) => caught);
    expect(MaxDepthExceededError.is(error)).toBe(true);
    expect(error).toMatchObject({ maxDepth: 50 });
  });

  it('refuses the call past the fan-out limit with FanOutLimitExceededError', async () => {
    const within = await client.submit('wide-parent', { width: 4 });
    expect(await within.result()).toEqual([0, 1, 2, 3]);
    const beyond = await client.submit('wide-parent', { width: 5 });
    const error = await beyond.result().catch((caught: unknown) => caught);
    expect(FanOutLimitExceededError.is(error)).toBe(true);
    expect(error).toMatchObject({
      maxChildren: 4,
      position: 'root/agent:wide-parent:0/g0/agent:echo-child:4',
    });
  });
});
