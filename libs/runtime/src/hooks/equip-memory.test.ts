import { describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import { executeRun } from '../agent/execute-run.js';
import { reborn } from '../context/reborn.js';
import { createEmbeddedServices } from '../embedded/create-embedded-services.js';
import { InMemoryRunMemoryStore } from '../embedded/in-memory-run-memory-store.js';
import { equipMemory } from './equip-memory.js';

describe('equipMemory', () => {
  it('returns copies: mutating a returned value never changes what is stored', async () => {
    const Agent = createAgent({
      id: 'copies',
      handler: async () => {
        const [first] = equipMemory('list', [1]);
        first.push(2);
        const [second] = equipMemory('list', [9]);
        return second;
      },
    });
    await expect(Agent()).resolves.toEqual([1]);
  });

  it('stores on set without changing the already returned value; updaters see the latest value', async () => {
    const Agent = createAgent({
      id: 'setter',
      handler: async () => {
        const [count, setCount] = equipMemory('count', 0);
        setCount(5);
        setCount((previous) => previous + 1);
        setCount((previous) => previous + 1);
        const [latest] = equipMemory('count', 0);
        return { count, latest };
      },
    });
    await expect(Agent()).resolves.toEqual({ count: 0, latest: 7 });
  });

  it.each([
    ['a function', () => 1, 'function'],
    ['a Date', new Date(0), 'class:Date'],
    ['a Map', new Map(), 'class:Map'],
    ['a symbol', Symbol('s'), 'symbol'],
    ['an undefined property', { a: undefined }, 'undefined'],
    ['NaN', Number.NaN, 'NaN'],
  ])('rejects %s with a TypeError naming the reason', async (_label, value, reason) => {
    const Agent = createAgent({ id: 'rejects', handler: async () => equipMemory('bad', value) });
    await expect(Agent()).rejects.toThrow(TypeError);
    await expect(Agent()).rejects.toThrow(`Reason: ${reason}`);
  });

  it('rejects cycles, also through set and functional set', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const Agent = createAgent({
      id: 'cycles',
      handler: async ({ mode }: { mode: 'set' | 'update' }) => {
        const [, set] = equipMemory<unknown>('value', 1);
        if (mode === 'set') set(cyclic);
        else set(() => ({ when: new Set() }));
      },
    });
    await expect(Agent({ mode: 'set' })).rejects.toThrow(/circular reference/);
    await expect(Agent({ mode: 'update' })).rejects.toThrow(/class:Set/);
  });

  it('survives reborn: a set before reborn() is visible in the next generation, other keys kept', async () => {
    const Agent = createAgent({
      id: 'reborn-memory',
      handler: async () => {
        const [round, setRound] = equipMemory('round', 0);
        const [notes, setNotes] = equipMemory<string[]>('notes', []);
        if (round < 2) {
          setRound(round + 1);
          if (round === 0) setNotes(['first']);
          return reborn();
        }
        return { round, notes };
      },
    });
    await expect(Agent()).resolves.toEqual({ round: 2, notes: ['first'] });
  });

  it('is fresh for every call and isolated between parallel invocations', async () => {
    const Child = createAgent({
      id: 'isolated',
      handler: async ({ tag }: { tag: string }) => {
        const [tags, setTags] = equipMemory<string[]>('tags', []);
        setTags([...tags, tag]);
        await new Promise((resolve) => setTimeout(resolve, 5));
        return equipMemory<string[]>('tags', [])[0];
      },
    });
    const Parent = createAgent({
      id: 'parent',
      handler: async () => Promise.all([Child({ tag: 'a' }), Child({ tag: 'b' }), Child({ tag: 'c' })]),
    });
    await expect(Parent()).resolves.toEqual([['a'], ['b'], ['c']]);
  });

  it('is written through to the run memory store under the callPath and cleared when the agent returns', async () => {
    const memory = new InMemoryRunMemoryStore();
    const snapshots: Record<string, unknown>[] = [];
    const Agent = createAgent({
      id: 'through',
      handler: async () => {
        const [, set] = equipMemory('k', 1);
        set(2);
        // Let the write-through land before looking at the store.
        await new Promise((resolve) => setTimeout(resolve, 0));
        snapshots.push(await memory.load('root/agent:through:0'));
        return 'done';
      },
    });
    await executeRun({ agent: Agent, input: {}, services: createEmbeddedServices({ memory }) });
    expect(snapshots).toEqual([{ k: 2 }]);
    expect(memory.callPaths()).toEqual([]);
  });

  it('starts from the stored values when a run is replayed', async () => {
    const memory = new InMemoryRunMemoryStore();
    await memory.set('root/agent:resumed:0', 'visits', 3);
    const Agent = createAgent({ id: 'resumed', handler: async () => equipMemory('visits', 0)[0] });
    const outcome = await executeRun({
      agent: Agent,
      input: {},
      services: createEmbeddedServices({ memory }),
    });
    expect(outcome.output).toBe(3);
  });
});
