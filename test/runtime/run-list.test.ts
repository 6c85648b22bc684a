/**
 * Finding runs: `client.listRuns` over 1,000 runs submitted through the real write path (no
 * worker serves their queue, so they stay queued until cancelled), with each filter, pagination
 * and tenants; `client.getRunTree` over a tree a real worker runs.
 */
import { createAgent } from '@flotilla/runtime';
import {
  createClient,
  type FlotillaClient,
  InvalidRunQueryError,
  type RunRecord,
} from '@flotilla/runtime/client';
import { createWorker, type FlotillaWorker } from '@flotilla/runtime/worker';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useRedis } from '../support/redis.js';
import { chainAgents } from '../trees/fixtures/chain-agents.js';

const redis = useRedis(import.meta.filename);
const RUNS = 1000;
let seeding: FlotillaClient;
let client: FlotillaClient;
const submitted: { runId: string; agentId: string }[] = [];

/** Every run of `query`, page by page. */
async function listAll(query: Parameters<FlotillaClient['listRuns']>[0], on = client): Promise<RunRecord[]> {
  const runs: RunRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await on.listRuns({ ...query, ...(cursor === undefined ? {} : { cursor }) });
    runs.push(...page.runs);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return runs;
}

beforeAll(async () => {
  // A queue no worker consumes: the runs stay queued, records and indexes are the real ones.
  seeding = createClient({ connection: redis.url, prefix: redis.prefix, queueName: 'unserved' });
  client = createClient({ connection: redis.url, prefix: redis.prefix });
  const started = performance.now();
  for (let batch = 0; batch < RUNS / 50; batch++) {
    const runs = Array.from({ length: 50 }, (_, i) => {
      const n = batch * 50 + i;
      return { runId: `seed-${String(n).padStart(4, '0')}`, agentId: n % 5 < 3 ? 'alpha' : 'beta' };
    });
    await Promise.all(runs.map((run) => seeding.submit(run.agentId, { n: run.runId }, { runId: run.runId })));
    submitted.push(...runs);
  }
  console.log(`seeded ${RUNS} runs through client.submit in ${Math.round(performance.now() - started)} ms`);
}, 120_000);

afterAll(async () => {
  await seeding.close();
  await client.close();
});

describe('listing runs', () => {
  it('pages through 1,000 runs newest first, each once', async () => {
    const started = performance.now();
    const paged = await listAll({ limit: 97 });
    console.log(
      `listed ${paged.length} runs in pages of 97 in ${Math.round(performance.now() - started)} ms`,
    );
    expect(paged).toHaveLength(RUNS);
    expect(new Set(paged.map((run) => run.runId)).size).toBe(RUNS);
    const times = paged.map((run) => run.createdAt);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const whole = await client.listRuns({ limit: 1000 });
    expect(whole.runs.map((run) => run.runId)).toEqual(paged.map((run) => run.runId));
    expect(paged[0]?.runId).toBe('seed-0999');
  });

  it('gives 50 runs when no limit is given, with a cursor to the next', async () => {
    const page = await client.listRuns();
    expect(page.runs).toHaveLength(50);
    expect(page.nextCursor).toEqual(expect.any(String));
  });

  it('filters by agent', async () => {
    const alpha = await listAll({ agentId: 'alpha', limit: 200 });
    expect(alpha).toHaveLength(600);
    expect(alpha.every((run) => run.agentId === 'alpha')).toBe(true);
    expect(await listAll({ agentId: 'nobody' })).toEqual([]);
  });

  it('filters by created time', async () => {
    // The split point is a record's own created time: the expected halves follow from the
    // records, so no clock has to move between submissions.
    const all = await listAll({ limit: 1000 });
    const pivot = (await client.getRun(submitted[RUNS / 2 - 1]?.runId ?? ''))?.createdAt ?? 0;
    const ids = (runs: RunRecord[]) => runs.map((run) => run.runId).sort();
    const older = await listAll({ createdBefore: pivot + 1, limit: 1000 });
    const newer = await listAll({ createdAfter: pivot, limit: 1000 });
    expect(ids(older)).toEqual(ids(all.filter((run) => run.createdAt <= pivot)));
    expect(ids(newer)).toEqual(ids(all.filter((run) => run.createdAt > pivot)));
    expect(older.length).toBeGreaterThanOrEqual(RUNS / 2);
    expect(older.length + newer.length).toBe(RUNS);
  });

  it('filters by status as the record says it now', async () => {
    const cancelled = ['seed-0003', 'seed-0500', 'seed-0998'];
    for (const runId of cancelled) await seeding.cancel(runId);
    const page = await listAll({ status: 'cancelled' });
    expect(page.map((run) => run.runId)).toEqual([...cancelled].reverse());
    // seed-0003 and seed-0998 are beta's.
    expect(await listAll({ status: 'queued', agentId: 'beta', limit: 1000 })).toHaveLength(400 - 2);
  });

  it('refuses a bad limit, cursor or filter, naming the field', async () => {
    await expect(client.listRuns({ limit: 1001 })).rejects.toMatchObject({
      name: 'InvalidRunQueryError',
      field: 'limit',
    });
    await expect(client.listRuns({ cursor: 'not-a-cursor' })).rejects.toMatchObject({ field: 'cursor' });
    await expect(client.listRuns({ status: 'done' as never })).rejects.toBeInstanceOf(InvalidRunQueryError);
  });

  it('skips and prunes the entries of records that expired', async () => {
    await redis.redis.del(`${redis.prefix}:run:{r:seed-0100}:record`);
    const all = await listAll({ limit: 1000 });
    expect(all.map((run) => run.runId)).not.toContain('seed-0100');
    expect(all).toHaveLength(RUNS - 1);
    const index = await redis.redis.zrange(`${redis.prefix}:runs:{x:~}:all`, 0, -1);
    expect(index.some((member) => member.endsWith(':seed-0100'))).toBe(false);
  });
});

describe('tenants', () => {
  it('lists only the tenant’s own runs, with its ids, and the admin client lists them by tenant', async () => {
    const acme = seeding.forTenant('acme');
    await acme.submit('alpha', {}, { runId: 'a1', conversationId: 'talk' });
    await acme.submit('alpha', {}, { runId: 'a2' });
    await seeding.forTenant('other').submit('alpha', {}, { runId: 'o1' });
    const own = await client.forTenant('acme').listRuns();
    expect(own.runs.map((run) => run.runId)).toEqual(['a2', 'a1']);
    expect(own.runs[1]).toMatchObject({ tenant: 'acme', conversationId: 'talk' });
    expect((await client.forTenant('acme').listRuns({ conversationId: 'talk' })).runs).toHaveLength(1);
    expect((await client.listRuns({ tenant: 'other' })).runs.map((run) => run.runId)).toEqual(['o1']);
    const ofNoTenant = await listAll({ limit: 1000 });
    expect(ofNoTenant.some((run) => run.tenant !== undefined)).toBe(false);
    await expect(client.forTenant('acme').listRuns({ tenant: 'other' })).rejects.toMatchObject({
      name: 'InvalidRunQueryError',
      field: 'tenant',
    });
    // Another tenant's tree is not found.
    expect(await client.forTenant('other').getRunTree('a1')).toBeUndefined();
  });
});

describe('a run tree', () => {
  let worker: FlotillaWorker;
  beforeAll(async () => {
    const Fan = createAgent({
      id: 'fan',
      handler: async () => Promise.all([chainAgents[1]?.({ value: 1 }), chainAgents[2]?.({ value: 2 })]),
    });
    worker = createWorker({
      agents: [...chainAgents, Fan],
      connection: redis.url,
      prefix: redis.prefix,
      logger: pino({ level: 'silent' }),
    });
    await worker.waitUntilReady();
  });
  afterAll(() => worker.close());

  it('nests every child run under its parent, with status, attempts and duration', async () => {
    const run = await client.forTenant('acme').submit('fan', {}, { runId: 'fan-1' });
    await run.result();
    const tree = await client.forTenant('acme').getRunTree('fan-1');
    expect(tree).toMatchObject({ nodeCount: 4, truncated: false });
    expect(tree?.root).toMatchObject({ runId: 'fan-1', agentId: 'fan', status: 'succeeded', attempts: 1 });
    expect(tree?.root.durationMs).toBeGreaterThanOrEqual(0);
    const agents = tree?.root.children.map((child) => child.agentId).sort();
    expect(agents).toEqual(['chain-child', 'chain-grandchild']);
    const chainChild = tree?.root.children.find((child) => child.agentId === 'chain-child');
    expect(chainChild?.children.map((child) => child.agentId)).toEqual(['chain-grandchild']);
    expect(chainChild?.runId.startsWith('fan-1.')).toBe(true);
    // The tree's runs are listed by its root, the root included.
    const listed = await client.forTenant('acme').listRuns({ rootRunId: 'fan-1' });
    expect(listed.runs.map((listedRun) => listedRun.runId).sort()).toEqual(
      [
        tree?.root.runId,
        ...(tree?.root.children ?? []).flatMap((c) => [c.runId, ...c.children.map((g) => g.runId)]),
      ]
        .map(String)
        .sort(),
    );
    const small = await client.forTenant('acme').getRunTree('fan-1', { maxNodes: 2 });
    expect(small).toMatchObject({ nodeCount: 2, truncated: true });
  });
});
