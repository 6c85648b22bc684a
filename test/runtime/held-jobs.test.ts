/**
 * A worker's concurrency is shared by the queues of the agents it serves. When every slot is in
 * use, the queue of an agent with no run here still fetches one job (BullMQ's floor of one): that
 * job waits here for the next slot a run frees, and runs then, instead of being handed back to its
 * queue for a fixed delay whatever happens; one that no slot frees for stays unstarted and goes
 * back for any worker after `slotHoldMs`; a closing worker hands it back at once, and so does one
whose agent's new runs a newer build took while the job waited (pinned versioning). One slot, two
 * agents; holds long enough (a minute) that only the run's end or the close can end them, or
 * short (50 ms) where the hand-back is the point.
 */
import { createAgent } from '@flotilla/runtime';
import { createClient, type FlotillaClient } from '@flotilla/runtime/client';
import { createWorker, type FlotillaWorker } from '@flotilla/runtime/worker';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { useRedis } from '../support/redis.js';

const redis = useRedis(import.meta.filename);

/** Runs of `slot-holder` wait for the test to let them end. */
const releases: (() => void)[] = [];
/** Runs executing now, and the most ever executing at once. */
let executing = 0;
let mostAtOnce = 0;

function counted<T>(work: () => Promise<T>): Promise<T> {
  executing++;
  mostAtOnce = Math.max(mostAtOnce, executing);
  return work().finally(() => {
    executing--;
  });
}

const SlotHolder = createAgent({
  id: 'slot-holder',
  handler: () => counted(() => new Promise<string>((resolve) => releases.push(() => resolve('held')))),
});
const Waiter = createAgent({
  id: 'slot-waiter',
  handler: ({ n }: { n: number }) => counted(async () => n * 2),
});

/** A worker with one slot, both agents, and `slotHoldMs` (of build `buildId`, pinned, when given). */
async function startOneSlotWorker(slotHoldMs: number, buildId?: string): Promise<FlotillaWorker> {
  const started = createWorker({
    agents: [SlotHolder, Waiter],
    connection: redis.url,
    prefix: redis.prefix,
    concurrency: 1,
    slotHoldMs,
    ...(buildId && { buildId, versioning: 'pinned' as const }),
    // A closing worker hands its running run back after this long.
    shutdownGraceMs: 300,
    logger: pino({ level: 'silent' }),
  });
  await started.waitUntilReady();
  return started;
}

const LONG_HOLD_MS = 60_000;
let worker: FlotillaWorker | undefined;
/** A second worker, when a case starts one. */
let other: FlotillaWorker | undefined;
let client: FlotillaClient;

beforeAll(() => {
  client = createClient({ connection: redis.url, prefix: redis.prefix });
});

afterEach(async () => {
  for (const release of releases.splice(0)) release();
  await Promise.all([worker?.close(), other?.close()]);
  worker = undefined;
  other = undefined;
});

afterAll(async () => {
  await client?.close();
});

/** A key of an agent's BullMQ queue (the default queue name, `agents`). */
const queueKey = (agentId: string, suffix: string) => `${redis.prefix}:{q}:agents/${agentId}:${suffix}`;

/** The BullMQ events of the waiter's queue about `jobId`, in order (`added`, `active`, ...). */
async function jobEvents(jobId: string): Promise<string[]> {
  const entries = await redis.redis.xrange(queueKey('slot-waiter', 'events'), '-', '+');
  return entries
    .map(([, fields]) =>
      Object.fromEntries(fields.flatMap((_, i) => (i % 2 ? [] : [[fields[i], fields[i + 1]]]))),
    )
    .filter((event) => event.jobId === jobId)
    .map((event) => event.event as string);
}

async function waitForHolder(): Promise<void> {
  await vi.waitFor(() => expect(releases.length).toBeGreaterThan(0), { timeout: 15_000 });
}

/**
 * A holder run holding the worker's one slot, then a waiter run submitted behind it, once the
 * waiter's queue shows `event` for its job (`active`: fetched and held; `delayed`: handed back).
 */
async function waiterBehindHolder(n: number, event: 'active' | 'delayed') {
  const holder = await client.submit('slot-holder', {});
  await waitForHolder();
  const waiter = await client.submit('slot-waiter', { n });
  await vi.waitFor(async () => expect(await jobEvents(waiter.id)).toContain(event), { timeout: 15_000 });
  return { holder, waiter };
}

describe('a job fetched while every slot is in use', () => {
  it('runs in the slot the next run frees, without leaving its queue', async () => {
    worker = await startOneSlotWorker(LONG_HOLD_MS);
    // The waiter's idle queue fetched it: active on this worker, not started (no slot).
    const { holder, waiter } = await waiterBehindHolder(21, 'active');
    expect((await client.getRun(waiter.id))?.status).toBe('queued');

    releases.shift()?.();
    expect(await holder.result()).toBe('held');
    expect(await waiter.result()).toBe(42);
    // Never handed back: one fetch, straight to completion.
    expect(await jobEvents(waiter.id)).not.toContain('delayed');
    expect((await jobEvents(waiter.id)).filter((event) => event === 'active')).toHaveLength(1);
    expect(mostAtOnce).toBe(1);
  });

  it('goes back to its queue unstarted when no slot frees within slotHoldMs, and runs once one does', async () => {
    worker = await startOneSlotWorker(50);
    // Held, then handed back for any worker with a free slot (here: none until the holder ends).
    const { holder, waiter } = await waiterBehindHolder(5, 'delayed');
    expect((await client.getRun(waiter.id))?.status).toBe('queued');

    releases.shift()?.();
    expect(await holder.result()).toBe('held');
    expect(await waiter.result()).toBe(10);
    expect(mostAtOnce).toBe(1);
  });

  it('is handed back unstarted when its worker closes, and runs on another worker', async () => {
    worker = await startOneSlotWorker(LONG_HOLD_MS);
    const { holder, waiter } = await waiterBehindHolder(8, 'active');

    await worker.close();
    // Neither run ended on the closed worker; the held one never started there.
    expect((await client.getRun(waiter.id))?.status).toBe('queued');
    expect((await client.getRun(holder.id))?.status).toBe('running');

    // The holder's first attempt was handed back at the grace's end: what it does now is ignored.
    for (const release of releases.splice(0)) release();
    worker = await startOneSlotWorker(LONG_HOLD_MS);
    // Taken over by the new worker: let it end.
    await waitForHolder();
    releases.shift()?.();
    expect(await holder.result()).toBe('held');
    expect(await waiter.result()).toBe(16);
    expect((await client.getRun(waiter.id))?.attempts).toBe(1);
    expect(mostAtOnce).toBe(1);
  });

  it("is handed back, not run, when a newer build took its agent's new runs while it waited", async () => {
    worker = await startOneSlotWorker(LONG_HOLD_MS, 'v1');
    const { holder, waiter } = await waiterBehindHolder(4, 'active');
    // A newer build comes up: v1 stops taking the waiter's new runs (its consumer pauses).
    other = await startOneSlotWorker(LONG_HOLD_MS, 'v2');
    await vi.waitFor(
      async () => {
        const v1 = (await client.listWorkers()).find((info) => info.buildId === 'v1');
        expect(v1?.draining).toContain('slot-waiter');
      },
      { timeout: 15_000 },
    );

    // The slot v1 frees now goes to the held job, which v1 must not start: the new build runs it.
    releases.shift()?.();
    expect(await holder.result()).toBe('held');
    expect(await waiter.result()).toBe(8);
    expect(await client.getRun(waiter.id)).toMatchObject({ buildId: 'v2', attempts: 1 });
    expect(await jobEvents(waiter.id)).toContain('delayed');
  });
});
