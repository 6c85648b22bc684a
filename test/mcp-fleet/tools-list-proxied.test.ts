/**
 * The fleet-wide `tools/list` cache when children reach the MCP client through the resource
 * broker: four worker processes WITHOUT a `defineResource('mcp:shared', …)`, so a child on
 * another worker than its parent gets a broker proxy to the parent's client, and its
 * `equipMCP` reads the server's identity through that proxy. Proxied and direct children must
 * key the cache the same way: the fleet still sends one `tools/list`.
 */
import { fileURLToPath } from 'node:url';
import { createClient, type FlotillaClient } from '@flotilla/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useRedis } from '../support/redis.js';
import { WorkerProcesses } from '../support/worker-processes.js';
import { type CountingMCPServer, startCountingMCPServer } from './fixtures/counting-mcp-server.js';
import type { ParentReport } from './fixtures/fleet-agents.js';

const WORKERS = 4;
const SLOTS_PER_WORKER = 10;
const CHILDREN = WORKERS * SLOTS_PER_WORKER;
const workerProgram = fileURLToPath(new URL('./fixtures/fleet-worker.ts', import.meta.url));

const redis = useRedis(import.meta.filename);
let server: CountingMCPServer;
let workers: WorkerProcesses;
let client: FlotillaClient;

beforeAll(async () => {
  server = await startCountingMCPServer();
  workers = new WorkerProcesses(workerProgram, {
    REDIS_URL: redis.url,
    FLOTILLA_PREFIX: redis.prefix,
    CONCURRENCY: String(SLOTS_PER_WORKER),
    SHARED_DEFINED: '0',
  });
  await Promise.all(Array.from({ length: WORKERS }, () => workers.start()));
  client = createClient({ connection: redis.url, prefix: redis.prefix });
}, 120_000);

afterAll(async () => {
  await client?.close();
  await workers?.stop();
  await server?.close();
});

describe('when children on other workers reach the MCP client through the broker', () => {
  it('still sends one tools/list for the whole fleet', async () => {
    const run = await client.submit<ParentReport>('mcp-fleet-parent', {
      url: server.url,
      children: CHILDREN,
      wave: 'proxied',
    });
    const { children } = await run.result();

    expect(children.every((report) => report.sum === report.n + 1000)).toBe(true);
    expect(children.some((report) => report.viaBroker)).toBe(true);
    expect(children.some((report) => !report.viaBroker)).toBe(true);
    console.info(
      `proxied wave (${CHILDREN} children, ${WORKERS} workers): ${JSON.stringify(server.counts())}`,
    );
    expect(server.count('tools/list')).toBe(1);
    expect(server.count('tools/call')).toBe(CHILDREN);
  }, 180_000);
});
