import { afterAll, describe, expect, it } from 'vitest';
import { useRedis } from '../../../../test/support/redis.js';
import { createAgent } from '../agent/create-agent.js';
import { executeRun } from '../agent/execute-run.js';
import { reborn } from '../context/reborn.js';
import { createEmbeddedServices } from '../embedded/create-embedded-services.js';
import { InMemoryRunJournal } from '../embedded/in-memory-run-journal.js';
import { InMemoryRunMemoryStore } from '../embedded/in-memory-run-memory-store.js';
import { createFleetMemo, type FleetMemo } from '../memo/fleet-memo.js';
import { equipFleetMemo } from './equip-fleet-memo.js';

const redis = useRedis(import.meta.filename);
const fleetMemos: FleetMemo[] = [];

function workerFleetMemo(): FleetMemo {
  const memo = createFleetMemo({ connection: redis.connect(), prefix: redis.prefix });
  fleetMemos.push(memo);
  return memo;
}

afterAll(async () => {
  await Promise.all(fleetMemos.map((memo) => memo.close()));
});

/** A compute function that counts its calls and returns `list-<n>`. */
function countingCompute() {
  const counter = {
    calls: 0,
    compute: async () => {
      counter.calls += 1;
      return `list-${counter.calls}`;
    },
  };
  return counter;
}

describe('equipFleetMemo', () => {
  describe('inside one agent invocation', () => {
    it('computes once across reborn rounds and recomputes once on forceRefresh', async () => {
      const counter = countingCompute();
      const Agent = createAgent<{ round: number }, string[]>({
        id: 'lister',
        handler: async ({ round }) => {
          const first = await equipFleetMemo('tools', counter.compute, ['fs']);
          if (round === 0) return reborn({ round: 1 });
          const refreshed = await equipFleetMemo('tools', counter.compute, ['fs'], { forceRefresh: true });
          const after = await equipFleetMemo('tools', counter.compute, ['fs']);
          return [first, refreshed, after];
        },
      });
      const { output } = await executeRun({
        agent: Agent,
        input: { round: 0 },
        services: createEmbeddedServices(),
      });
      expect(output).toEqual(['list-1', 'list-2', 'list-2']);
      expect(counter.calls).toBe(2);
    });
  });

  describe('when a run is replayed after a crash', () => {
    it('returns the recorded values without computing, even for a forceRefresh call', async () => {
      const counter = countingCompute();
      const Agent = createAgent<undefined, string[]>({
        id: 'replayed',
        handler: async () => [
          await equipFleetMemo('tools', counter.compute, ['fs']),
          await equipFleetMemo('tools', counter.compute, ['fs'], { forceRefresh: true }),
        ],
      });
      const journal = new InMemoryRunJournal();
      const memory = new InMemoryRunMemoryStore();
      const services = () => createEmbeddedServices({ runId: 'run-1', journal, memory });
      const first = await executeRun({ agent: Agent, input: undefined, services: services() });
      const replay = await executeRun({ agent: Agent, input: undefined, services: services() });
      expect(replay.output).toEqual(first.output);
      expect(counter.calls).toBe(2);
    });
  });

  describe('when the run has a fleet memo', () => {
    it('shares one computation between runs on different workers', async () => {
      const counter = countingCompute();
      const Agent = createAgent<undefined, string>({
        id: 'fleet',
        handler: () => equipFleetMemo('tools-shared', counter.compute, ['fs']),
      });
      const outputs = await Promise.all(
        [workerFleetMemo(), workerFleetMemo(), workerFleetMemo()].map(async (fleetMemo) => {
          const services = { ...createEmbeddedServices(), fleetMemo };
          return (await executeRun({ agent: Agent, input: undefined, services })).output;
        }),
      );
      expect(outputs).toEqual(['list-1', 'list-1', 'list-1']);
      expect(counter.calls).toBe(1);
    });

    it('makes a forceRefresh in one run visible to later runs', async () => {
      const counter = countingCompute();
      const fleetMemo = workerFleetMemo();
      const agent = (forceRefresh: boolean) =>
        createAgent<undefined, string>({
          id: 'refresher',
          handler: () => equipFleetMemo('tools-refresh', counter.compute, ['fs'], { forceRefresh }),
        });
      const run = async (forceRefresh: boolean) =>
        (
          await executeRun({
            agent: agent(forceRefresh),
            input: undefined,
            services: { ...createEmbeddedServices(), fleetMemo },
          })
        ).output;
      expect(await run(false)).toBe('list-1');
      expect(await run(true)).toBe('list-2');
      expect(await run(false)).toBe('list-2');
      expect(counter.calls).toBe(2);
    });
  });

  describe('without a fleet memo (embedded mode)', () => {
    it('computes once per run', async () => {
      const counter = countingCompute();
      const Agent = createAgent<undefined, string>({
        id: 'embedded',
        handler: () => equipFleetMemo('tools', counter.compute, []),
      });
      await executeRun({ agent: Agent, input: undefined, services: createEmbeddedServices() });
      await executeRun({ agent: Agent, input: undefined, services: createEmbeddedServices() });
      expect(counter.calls).toBe(2);
    });
  });

  it('rejects deps that are not JSON before computing', async () => {
    const counter = countingCompute();
    const Agent = createAgent<undefined, string>({
      id: 'bad-deps',
      handler: () => equipFleetMemo('tools', counter.compute, [new Date()]),
    });
    await expect(
      executeRun({ agent: Agent, input: undefined, services: createEmbeddedServices() }),
    ).rejects.toThrow(TypeError);
    expect(counter.calls).toBe(0);
  });
});
