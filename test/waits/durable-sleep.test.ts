/**
 * Durable sleep across a worker restart (real worker processes): the run parks in BullMQ's
 * delayed set holding no slot, its worker is SIGKILLed while it sleeps, a new worker finishes it
 * after its due time, and nothing before the sleep ran again (the tool counted once).
 */
import { fileURLToPath } from 'node:url';
import { createClient, type FlotillaClient } from '@flotilla/runtime/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useRedis } from '../support/redis.js';
import { waitUntil } from '../support/wait-until.js';
import { WorkerProcesses } from '../support/worker-processes.js';
import { waitKeys } from './fixtures/wait-agents.js';

const redis = useRedis(import.meta.filename);
const program = fileURLToPath(new URL('./fixtures/wait-worker.ts', import.meta.url));
let workers: WorkerProcesses;
let client: FlotillaClient;

beforeAll(async () => {
  workers = new WorkerProcesses(program, { REDIS_URL: redis.url, FLOTILLA_PREFIX: redis.prefix });
  client = createClient({ connection: redis.url, prefix: redis.prefix });
});

afterAll(async () => {
  await client?.close();
  await workers?.stop();
});

describe('durable sleep', () => {
  it('survives a worker restart and ends after its due time, without repeating earlier steps', async () => {
    const first = await workers.start();
    const run = await client.submit<{ sleptAt: number; wokeAt: number }>('sleeper', { ms: 2000 });
    const waiting = await waitUntil(
      async () => {
        const record = await client.getRun(run.id);
        return record?.status === 'waiting' ? record : undefined;
      },
      { what: `run ${run.id} waiting in its sleep` },
    );
    expect(waiting.waitingFor?.kind).toBe('sleep');
    const until = Number(waiting.waits?.[0]?.info?.until);
    expect(until).toBeGreaterThan(0);
    await workers.kill(first.pid ?? 0);
    await workers.start();
    const output = await run.result();
    expect(output.wokeAt).toBeGreaterThanOrEqual(until);
    const record = await client.getRun(run.id);
    expect(record?.endedAt).toBeGreaterThanOrEqual(until);
    expect(record?.waitingFor).toBeUndefined();
    // The tool before the sleep ran once; the model turns before it were not made again.
    expect(await redis.redis.hget(waitKeys(redis.prefix).counts, `${run.id}:call_1:note`)).toBe('1');
    expect(record?.modelCalls).toBe(2);
    const types: string[] = [];
    for await (const event of client.run(run.id).events()) types.push(event.type);
    expect(types.filter((type) => type === 'sleep-started')).toHaveLength(1);
  });
});
