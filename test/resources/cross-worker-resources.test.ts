/**
 * Resources across real worker processes: the seed's parent/child example (an MCP filesystem
 * client created inline by the parent, expected by the child) with the child on another worker
 * than the parent, reading the file through the broker; and recovery when the owner worker is
 * SIGKILLed while the child is pending.
 *
 * Placement is decided by the test, not by luck: every worker has one slot per process (or
 * two), the parent holds its slot next to the pending child call until the child has ended,
 * and the next worker is started only once the parent holds its slot.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient, type FlotillaClient, type RunEvent } from '@flotilla/runtime/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useRedis } from '../support/redis.js';
import { waitForKey } from '../support/wait-for-key.js';
import { WorkerProcesses } from '../support/worker-processes.js';
import { type ChildResult, filesystemKeys } from './fixtures/filesystem-agents.js';

const redis = useRedis(import.meta.filename);
const workerProgram = fileURLToPath(new URL('./fixtures/resource-worker.ts', import.meta.url));
let workers: WorkerProcesses;
let client: FlotillaClient;
let root: string;

async function eventsOf(runId: string): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of client.run(runId).events()) {
    events.push(event);
    if (event.type === 'run-end') break;
  }
  return events;
}

beforeAll(() => {
  workers = new WorkerProcesses(workerProgram, { REDIS_URL: redis.url, FLOTILLA_PREFIX: redis.prefix });
  client = createClient({ connection: redis.url, prefix: redis.prefix });
  root = mkdtempSync(join(tmpdir(), 'flotilla-fs-'));
  writeFileSync(join(root, 'config.json'), JSON.stringify({ project: 'flotilla', mode: 'analyze' }));
});

afterEach(async () => {
  await workers.stop();
  const keys = filesystemKeys(redis.prefix);
  await redis.redis.del(...Object.values(keys));
});

afterAll(async () => {
  await workers?.stop();
  await client.close();
});

describe('the seed parent/child example across workers', () => {
  it('lets the child on another worker read the file through the parent’s MCP client', async () => {
    const keys = filesystemKeys(redis.prefix);
    const parentWorker = await workers.start();
    const run = await client.submit('fs-parent', { root });
    expect(Number(await waitForKey(redis.redis, keys.parentHolding))).toBe(parentWorker.pid);
    const childWorker = await workers.start();

    const result = (await run.result()) as ChildResult;

    expect(result.childPid).toBe(childWorker.pid);
    expect(result.viaBroker).toBe(true);
    expect(JSON.parse(result.summary.split('Configuration: ')[1] ?? 'null')).toEqual({
      project: 'flotilla',
      mode: 'analyze',
    });
    // server-filesystem has no resources: the SDK's McpError came back through the broker by name.
    expect(result.readResourceError).toBe('McpError');
  });
});

describe('when the owner worker is killed while the child is pending', () => {
  it('fails the child with ResourceOwnerGoneError, and the parent’s replay recreates the resource and reruns the child', async () => {
    const keys = filesystemKeys(redis.prefix);
    const ownerWorker = await workers.start();
    const run = await client.submit('fs-parent', { root, waitForGo: true });
    await waitForKey(redis.redis, keys.parentHolding);
    const survivor = await workers.start({ CONCURRENCY: '2' });
    expect(Number(await waitForKey(redis.redis, keys.childWaiting))).toBe(survivor.pid);

    await workers.kill(ownerWorker.pid as number);
    await redis.redis.set(keys.go, '1');

    const result = (await run.result()) as ChildResult;
    expect(result.childPid).toBe(survivor.pid);
    // The rerun child ran where the parent recreated the resource: the very instance, no broker.
    expect(result.viaBroker).toBe(false);
    expect(JSON.parse(result.summary.split('Configuration: ')[1] ?? 'null')).toMatchObject({
      project: 'flotilla',
    });
    // One MCP client on the killed owner, one recreated by the replay on the survivor.
    expect(await redis.redis.get(keys.creates)).toBe('2');

    const childRuns = (await eventsOf(run.id)).flatMap((event) =>
      event.type === 'child-start' && event.childRunId ? [event.childRunId] : [],
    );
    const [firstChild, rerun] = [...new Set(childRuns)];
    expect(rerun).toBeDefined();
    const first = await client.getRun(firstChild as string);
    expect(first).toMatchObject({ status: 'failed', error: { name: 'ResourceOwnerGoneError' } });
    expect(await client.getRun(rerun as string)).toMatchObject({ status: 'succeeded' });
  });
});
