/**
 * The fleet-wide `tools/list` cache (ARCHITECTURE.md §5), measured on the wire: ONE MCP server
 * over Streamable HTTP (in this process), FOUR real worker processes, each with its own SDK
 * client to it (`defineResource('mcp:shared', …)`), and one parent run that fans out to 100
 * child agents at once. Every child calls `equipMCP(client, { clientId: 'shared' })` and a model
 * turn that calls the server's `add` tool. The server counts the JSON-RPC requests it receives:
 * the whole fleet must send exactly one `tools/list`; a second wave in which one child passes
 * `forceRefresh: true` must send exactly one more.
 *
 * The children wait at a barrier until all 100 have started, so they run at the same time, on
 * all four workers (25 slots each), and reach `equipMCP` together: the single flight is real.
 */
import { createFleetMemo } from '@flotilla/runtime/internals';
import { describe, expect, it } from 'vitest';
import { useRedis } from '../support/redis.js';
import {
  type ChildReport,
  type FleetParentInput,
  type ParentReport,
  SHARED_CLIENT_ID,
} from './fixtures/fleet-agents.js';
import { useMcpFleet } from './fixtures/use-mcp-fleet.js';

const WORKERS = 4;
const SLOTS_PER_WORKER = 25;
const CHILDREN = WORKERS * SLOTS_PER_WORKER;

const redis = useRedis(import.meta.filename);
const fleet = useMcpFleet(redis, { workers: WORKERS, slotsPerWorker: SLOTS_PER_WORKER });

async function runWave(input: Omit<FleetParentInput, 'url' | 'children'>): Promise<ParentReport> {
  const run = await fleet.client.submit<ParentReport>('mcp-fleet-parent', {
    url: fleet.server.url,
    children: CHILDREN,
    ...input,
  });
  return run.result();
}

/**
 * MCP connections a wave opens: one per worker (the parent's client on its worker, a
 * `defineResource` client on each other one; all are closed when the wave ends), plus one when
 * the parent's replay after its children ran on another worker and recreated its client there.
 */
function connectionsOf(parent: ParentReport): number {
  return WORKERS + (parent.lastPid === parent.firstPid ? 0 : 1);
}

function expectEveryChildSucceeded(reports: ChildReport[]): void {
  expect(reports.map((report) => report.n)).toEqual(Array.from({ length: CHILDREN }, (_, n) => n));
  expect(reports.every((report) => report.sum === report.n + 1000)).toBe(true);
  expect(new Set(reports.map((report) => report.tools.join(',')))).toEqual(new Set(['add,echo']));
  // Each child had a client of its own worker (the parent's, or a defineResource instance).
  expect(reports.some((report) => report.viaBroker)).toBe(false);
  expect(new Set(reports.map((report) => report.pid))).toEqual(new Set(fleet.workerPids));
}

describe(`when ${CHILDREN} child agents on ${WORKERS} worker processes equip the same MCP server`, () => {
  it('sends one tools/list for the whole fleet, and one more when a child forces a refresh', async () => {
    const first = await runWave({ wave: 'wave-1' });

    expectEveryChildSucceeded(first.children);
    const afterFirst = fleet.server.counts();
    console.info(`wave 1 (${CHILDREN} children, ${WORKERS} workers): ${JSON.stringify(afterFirst)}`);
    expect(afterFirst['tools/list']).toBe(1);
    expect(afterFirst['tools/call']).toBe(CHILDREN);
    expect(afterFirst.initialize).toBe(connectionsOf(first));

    const second = await runWave({ wave: 'wave-2', refreshChild: 0 });

    expectEveryChildSucceeded(second.children);
    const afterSecond = fleet.server.counts();
    console.info(`wave 2 (child 0 with forceRefresh): ${JSON.stringify(afterSecond)}`);
    expect(afterSecond['tools/list']).toBe(2);
    expect(afterSecond['tools/call']).toBe(2 * CHILDREN);
    expect(afterSecond.initialize).toBe(connectionsOf(first) + connectionsOf(second));
    const fleetMemo = createFleetMemo({ connection: redis.redis, prefix: redis.prefix });
    expect(await fleetMemo.epoch(`mcp-tools:${SHARED_CLIENT_ID}`)).toBe(1);
    await fleetMemo.close();
  }, 240_000);
});
