/**
 * Cancel ends a run even when its code ignores the abort signal: a tool that never returns is
 * abandoned after the worker's grace period, the record ends `cancelled`, `result()` settles,
 * and the next job starts on the same concurrency-1 worker. Work that finishes after the cancel
 * cannot write: its journal record and events are refused.
 */
import { fileURLToPath } from 'node:url';
import { AbortError } from '@flotilla/runtime';
import { createClient, type FlotillaClient, type RunEvent } from '@flotilla/runtime/client';
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
  await workers.start({ CONCURRENCY: '1' });
  client = createClient({ connection: redis.url, prefix: redis.prefix });
});

afterAll(async () => {
  await client?.close();
  await workers?.stop();
});

async function eventsOf(runId: string): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of client.run(runId).events()) events.push(event);
  return events;
}

describe('cancelling a run whose tool ignores its abort signal', () => {
  it('ends it cancelled, settles result() and frees the slot for the next job', async () => {
    const keys = faultKeys(redis.prefix);
    const run = await client.submit('tool-caller', { tool: 'hang-tool' });
    await waitForKey(redis.redis, keys.hanging('hang-tool'));

    const cancelledAt = performance.now();
    await client.cancel(run.id);
    const error = await run.result().catch((caught: unknown) => caught);
    reportFigure('cancel → result() settled, tool ignoring its signal', performance.now() - cancelledAt);

    expect(AbortError.is(error)).toBe(true);
    expect(await client.getRun(run.id)).toMatchObject({ status: 'cancelled', error: { name: 'AbortError' } });
    // The slot is free: the only worker (concurrency 1) runs the next job.
    const nextSubmittedAt = performance.now();
    expect(await (await client.submit('quick', {})).result()).toBe('quick done');
    reportFigure('next job on the freed slot, submit → result', performance.now() - nextSubmittedAt);
    // The tool was told, even though it did not listen.
    expect(await waitForKey(redis.redis, keys.toolSignalAborted('hang-tool'))).toBe('1');
  });

  it('refuses the journal record and events of work that finishes after the cancel', async () => {
    const keys = faultKeys(redis.prefix);
    const run = await client.submit('tool-caller', { tool: 'late' });
    await waitForKey(redis.redis, keys.hanging('late'));
    await client.cancel(run.id);
    await expect(run.result()).rejects.toMatchObject({ name: 'AbortError' });

    await waitForKey(redis.redis, keys.lateReturned);
    // The worker went on: a job behind it completes (and the late tool's engine step ran meanwhile).
    expect(await (await client.submit('quick', {})).result()).toBe('quick done');

    const journal = await redis.redis.hkeys(`${redis.prefix}:run:{r:${run.id}}:journal`);
    expect(journal.filter((position) => position.includes('tool:call-late'))).toEqual([]);
    const events = await eventsOf(run.id);
    expect(events.filter((event) => event.type === 'tool-result')).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'cancelled' });
    expect(await client.getRun(run.id)).toMatchObject({ status: 'cancelled' });
  });
});
