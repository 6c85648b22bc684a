/**
 * The fleet-wide `tools/list` cache when children reach the MCP client through the resource
 * broker: four worker processes WITHOUT a `defineResource('mcp:shared', …)`, so a child on
 * another worker than its parent gets a broker proxy to the parent's client, and its
 * `equipMCP` reads the server's identity through that proxy. Proxied and direct children must
 * key the cache the same way: the fleet still sends one `tools/list`.
 */
import { describe, expect, it } from 'vitest';
import { useRedis } from '../support/redis.js';
import type { ParentReport } from './fixtures/fleet-agents.js';
import { useMcpFleet } from './fixtures/use-mcp-fleet.js';

const WORKERS = 4;
const SLOTS_PER_WORKER = 10;
const CHILDREN = WORKERS * SLOTS_PER_WORKER;

const redis = useRedis(import.meta.filename);
const fleet = useMcpFleet(redis, {
  workers: WORKERS,
  slotsPerWorker: SLOTS_PER_WORKER,
  env: { SHARED_DEFINED: '0' },
});

describe('when children on other workers reach the MCP client through the broker', () => {
  it('still sends one tools/list for the whole fleet', async () => {
    const run = await fleet.client.submit<ParentReport>('mcp-fleet-parent', {
      url: fleet.server.url,
      children: CHILDREN,
      wave: 'proxied',
    });
    const { firstPid, children } = await run.result();

    expect(children.every((report) => report.sum === report.n + 1000)).toBe(true);
    // All children run at once (a barrier), SLOTS_PER_WORKER on each worker: the ones on the
    // parent's worker use its client, every other one goes through the broker.
    const proxied = children.filter((report) => report.viaBroker);
    expect(proxied).toHaveLength(CHILDREN - SLOTS_PER_WORKER);
    expect(proxied.every((report) => report.pid !== firstPid)).toBe(true);
    expect(children.filter((report) => report.pid === firstPid)).toHaveLength(SLOTS_PER_WORKER);
    console.info(
      `proxied wave (${CHILDREN} children, ${WORKERS} workers): ${JSON.stringify(fleet.server.counts())}`,
    );
    expect(fleet.server.count('tools/list')).toBe(1);
    expect(fleet.server.count('tools/call')).toBe(CHILDREN);
  }, 180_000);
});
