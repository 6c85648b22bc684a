/**
 * A child run obeys its parent's and its root's cancel flags when it starts (a child enqueued
 * after a cancel walked the tree is in no children set the walk read). The worker reads the
 * flags of the children starting in one tick together: here the children of two fan-outs start
 * together on a worker that serves only the leaves, one tree's root flagged, the other not.
 */
import { randomUUID } from 'node:crypto';
import { createAgent } from '@flotilla/runtime';
import { createClient, type FlotillaClient } from '@flotilla/runtime/client';
import { createWorker, type FlotillaWorker } from '@flotilla/runtime/worker';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { useRedis } from '../support/redis.js';

const redis = useRedis(import.meta.filename);
const WIDTH = 4;
/** The roots whose leaves' handlers ran, one entry per leaf. */
const ran: string[] = [];
const FlagLeaf = createAgent({
  id: 'flag-leaf',
  handler: async ({ root, n }: { root: string; n: number }) => {
    ran.push(root);
    return n;
  },
});
const FlagRoot = createAgent({
  id: 'flag-root',
  handler: async ({ root }: { root: string }) => {
    const values = await Promise.all(Array.from({ length: WIDTH }, (_, n) => FlagLeaf({ root, n })));
    return values.reduce((sum, value) => sum + value, 0);
  },
});

const workers: FlotillaWorker[] = [];
let client: FlotillaClient;

function startWorker(agents: Parameters<typeof createWorker>[0]['agents']): FlotillaWorker {
  const worker = createWorker({
    agents,
    connection: redis.url,
    prefix: redis.prefix,
    concurrency: 2 * WIDTH,
    logger: pino({ level: 'silent' }),
  });
  workers.push(worker);
  return worker;
}

beforeAll(async () => {
  // Only the roots are served at first: their leaves wait in their queue.
  await startWorker([FlagRoot]).waitUntilReady();
  client = createClient({ connection: redis.url, prefix: redis.prefix });
});

afterAll(async () => {
  await client?.close();
  for (const worker of workers) await worker.close();
});

describe('ancestor cancel flags', () => {
  it("ends the children of a flagged root cancelled without running them, and runs the other tree's", async () => {
    const flagged = await client.submit('flag-root', { root: 'flagged' }, { runId: randomUUID() });
    const other = await client.submit('flag-root', { root: 'other' }, { runId: randomUUID() });
    for (const run of [flagged, other])
      await vi.waitFor(async () => expect((await client.getRun(run.id))?.status).toBe('waiting'), {
        timeout: 15_000,
      });
    // What a cancel leaves for a child its walk missed: the root's flag, the child still queued.
    await redis.redis.set(`${redis.prefix}:run:{r:${flagged.id}}:cancel`, '1', 'EX', 600);
    const flaggedChildren = await redis.redis.smembers(`${redis.prefix}:run:{r:${flagged.id}}:children`);
    expect(flaggedChildren).toHaveLength(WIDTH);

    await startWorker([FlagLeaf]).waitUntilReady();

    expect(await other.result()).toBe((WIDTH * (WIDTH - 1)) / 2);
    await expect(flagged.result()).rejects.toMatchObject({ name: 'AbortError' });
    const leaves = await Promise.all(flaggedChildren.map((id) => client.getRun(id)));
    expect(leaves.map((leaf) => leaf?.status)).toEqual(Array(WIDTH).fill('cancelled'));
    expect(ran.filter((root) => root === 'flagged')).toEqual([]);
    expect(ran.filter((root) => root === 'other')).toHaveLength(WIDTH);
  });
});
