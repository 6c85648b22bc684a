/**
 * Run deadlines on real worker processes: a handler that never returns (and ignores its signal)
 * ends `failed` with `RunTimeoutError` at the submit's or the agent's `timeoutMs`; a tool past
 * its `timeoutMs` fails with `ToolTimeoutError`, which the model reads as the tool's error while
 * the run goes on; a child run inherits its parent's remaining time.
 */
import { fileURLToPath } from 'node:url';
import { RunTimeoutError } from '@flotilla/runtime';
import { createClient, type FlotillaClient, type RunRecord } from '@flotilla/runtime/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useRedis } from '../support/redis.js';
import { waitForKey } from '../support/wait-for-key.js';
import { WorkerProcesses } from '../support/worker-processes.js';
import { faultKeys } from './fixtures/fault-agents.js';
import { reportFigure } from './fixtures/figures.js';

const redis = useRedis(import.meta.filename);
const program = fileURLToPath(new URL('./fixtures/fault-worker.ts', import.meta.url));
let workers: WorkerProcesses;
let client: FlotillaClient;

beforeAll(async () => {
  workers = new WorkerProcesses(program, { REDIS_URL: redis.url, FLOTILLA_PREFIX: redis.prefix });
  await workers.start({ CONCURRENCY: '4' });
  client = createClient({ connection: redis.url, prefix: redis.prefix });
});

afterAll(async () => {
  await client?.close();
  await workers?.stop();
});

function deadlineOf(record: RunRecord | undefined): number {
  return Number(record?.error?.data?.deadline);
}

/** How long after its deadline the record ended. */
function overshootMs(record: RunRecord | undefined): number {
  return (record?.endedAt ?? 0) - deadlineOf(record);
}

describe('a run deadline', () => {
  it('fails a hung handler with RunTimeoutError at the submit timeoutMs', async () => {
    const run = await client.submit('hang', {}, { timeoutMs: 500 });
    const error = await run.result().catch((caught: unknown) => caught);
    expect(RunTimeoutError.is(error)).toBe(true);
    const record = await client.getRun(run.id);
    expect(record).toMatchObject({ status: 'failed', error: { name: 'RunTimeoutError' } });
    expect(deadlineOf(record)).toBeGreaterThan(record?.createdAt ?? 0);
    reportFigure('timeout overshoot, hung handler (submit timeoutMs 500)', overshootMs(record));
  });

  it("fails a hung handler at its agent's own timeoutMs", async () => {
    const run = await client.submit('hang-own-timeout', {});
    await expect(run.result()).rejects.toMatchObject({ name: 'RunTimeoutError' });
    const record = await client.getRun(run.id);
    expect(record).toMatchObject({ status: 'failed', error: { name: 'RunTimeoutError' } });
    reportFigure('timeout overshoot, hung handler (agent timeoutMs 400)', overshootMs(record));
  });

  it('lets a child run inherit the remaining time of its parent', async () => {
    const parent = await client.submit('parent', {}, { timeoutMs: 1000 });
    await expect(parent.result()).rejects.toMatchObject({ name: 'RunTimeoutError' });
    const [childId = ''] = await redis.redis.smembers(`${redis.prefix}:run:{r:${parent.id}}:children`);
    await expect(client.run(childId).result()).rejects.toMatchObject({ name: 'RunTimeoutError' });
    const child = await client.getRun(childId);
    const parentRecord = await client.getRun(parent.id);
    // The child has no timeout of its own: it stopped at its parent's deadline.
    expect(child).toMatchObject({ status: 'failed', error: { name: 'RunTimeoutError' } });
    expect(deadlineOf(child)).toBe(deadlineOf(parentRecord));
    expect(parentRecord).toMatchObject({ status: 'failed', error: { name: 'RunTimeoutError' } });
    reportFigure('timeout overshoot, inheriting child', overshootMs(child));
    reportFigure('timeout overshoot, its parent', overshootMs(parentRecord));
  });
});

describe('a tool timeoutMs', () => {
  it('fails the call with ToolTimeoutError, which the model sees, and the run goes on', async () => {
    const run = await client.submit('tool-caller', { tool: 'slow-tool' });
    const output = await run.result();
    expect(output).toMatch(/^tool said: .*ToolTimeoutError/);
    expect(await client.getRun(run.id)).toMatchObject({ status: 'succeeded', modelCalls: 2 });
    expect(await waitForKey(redis.redis, faultKeys(redis.prefix).toolSignalAborted('slow-tool'))).toBe('1');
  });
});
