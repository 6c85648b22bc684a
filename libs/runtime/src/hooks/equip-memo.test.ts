import { describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import { executeRun } from '../agent/execute-run.js';
import { reborn } from '../context/reborn.js';
import { createEmbeddedServices } from '../embedded/create-embedded-services.js';
import { InMemoryRunJournal } from '../embedded/in-memory-run-journal.js';
import { NonDeterminismError } from '../errors/run-errors.js';
import { equipMemo } from './equip-memo.js';
import { equipMemory } from './equip-memory.js';

describe('equipMemo', () => {
  it('returns the cached value while deps are deeply equal and recomputes when they change', async () => {
    let computed = 0;
    const factory = async () => ++computed;
    const Agent = createAgent({
      id: 'memo',
      handler: async () => [
        await equipMemo('value', factory, [{ page: 1, tags: ['a'] }]),
        await equipMemo('value', factory, [{ tags: ['a'], page: 1 }]),
        await equipMemo('value', factory, [{ page: 2, tags: ['a'] }]),
      ],
    });
    await expect(Agent()).resolves.toEqual([1, 1, 2]);
  });

  it('keeps its cache across reborn', async () => {
    let computed = 0;
    const Agent = createAgent({
      id: 'memo-reborn',
      handler: async () => {
        const value = await equipMemo('v', () => ++computed, ['same']);
        const [round, setRound] = equipMemory('round', 0);
        if (round < 2) {
          setRound(round + 1);
          return reborn();
        }
        return value;
      },
    });
    await expect(Agent()).resolves.toBe(1);
    expect(computed).toBe(1);
  });

  it('rejects non-JSON deps with a TypeError before the factory runs', async () => {
    let ran = false;
    const Agent = createAgent({
      id: 'memo-bad-deps',
      handler: async () =>
        equipMemo('v', () => {
          ran = true;
          return 1;
        }, [new Date()]),
    });
    await expect(Agent()).rejects.toThrow(/equipMemo\("v"\) deps: .*class:Date/);
    expect(ran).toBe(false);
  });

  it('stores nothing when the factory throws, so the next call runs it again', async () => {
    let attempts = 0;
    const Agent = createAgent({
      id: 'memo-throws',
      handler: async () => {
        const factory = async () => {
          attempts++;
          if (attempts === 1) throw new Error('flaky');
          return 'ok';
        };
        await equipMemo('v', factory, []).catch(() => undefined);
        return equipMemo('v', factory, []);
      },
    });
    await expect(Agent()).resolves.toBe('ok');
    expect(attempts).toBe(2);
  });

  it('is journaled: a replay returns the recorded value without running the factory', async () => {
    let computed = 0;
    const Agent = createAgent({
      id: 'memo-replay',
      handler: async () => equipMemo('v', () => ++computed, [1]),
    });
    const journal = new InMemoryRunJournal();
    await executeRun({ agent: Agent, input: {}, services: createEmbeddedServices({ journal }) });
    const replay = await executeRun({
      agent: Agent,
      input: {},
      services: createEmbeddedServices({ journal: new InMemoryRunJournal(journal.snapshot()) }),
    });
    expect(replay.output).toBe(1);
    expect(computed).toBe(1);
  });

  it('fails the replay with NonDeterminismError when the handler asks with other deps', async () => {
    const journal = new InMemoryRunJournal();
    const make = (deps: number[]) =>
      createAgent({ id: 'memo-deps', handler: async () => equipMemo('v', () => 1, deps) });
    await executeRun({ agent: make([1]), input: {}, services: createEmbeddedServices({ journal }) });
    const replay = executeRun({
      agent: make([2]),
      input: {},
      services: createEmbeddedServices({ journal: new InMemoryRunJournal(journal.snapshot()) }),
    });
    await expect(replay).rejects.toSatisfy(NonDeterminismError.is);
  });
});
