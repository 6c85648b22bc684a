import { describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import { reborn } from '../context/reborn.js';
import { ResourceNotFoundError } from '../errors/agent-errors.js';
import { equipMemory } from './equip-memory.js';
import { equipResource } from './equip-resource.js';
import { expectResource } from './expect-resource.js';

function tracker() {
  const log: string[] = [];
  const config = (name: string, deps: unknown[], expose = false) => ({
    create: async () => {
      log.push(`create ${name}`);
      return { name };
    },
    destroy: async (resource: { name: string }) => {
      log.push(`destroy ${resource.name}`);
    },
    deps,
    expose,
  });
  return { log, config };
}

describe('equipResource', () => {
  it('creates once for the same deps and destroys the old instance before creating a new one when they change', async () => {
    const { log, config } = tracker();
    const Agent = createAgent({
      id: 'deps',
      handler: async () => {
        const a = await equipResource('db', config('db-1', [1]));
        const b = await equipResource('db', config('db-1', [1]));
        await equipResource('db', config('db-2', [2]));
        return a === b;
      },
    });
    await expect(Agent()).resolves.toBe(true);
    expect(log).toEqual(['create db-1', 'destroy db-1', 'create db-2', 'destroy db-2']);
  });

  it('survives reborn and is destroyed exactly once when the agent ends', async () => {
    const { log, config } = tracker();
    const Agent = createAgent({
      id: 'reborn-resource',
      handler: async () => {
        await equipResource('client', config('client', ['same']));
        const [round, setRound] = equipMemory('round', 0);
        if (round < 2) {
          setRound(round + 1);
          return reborn();
        }
        return 'done';
      },
    });
    await Agent();
    expect(log).toEqual(['create client', 'destroy client']);
  });

  it('tears down in reverse order also when the handler throws, and one failing destroy does not stop the others', async () => {
    const log: string[] = [];
    const Agent = createAgent({
      id: 'teardown',
      handler: async () => {
        for (const name of ['a', 'b', 'c']) {
          await equipResource(name, {
            create: () => name,
            destroy: async (value) => {
              log.push(`destroy ${value}`);
              if (value === 'b') throw new Error('b failed');
            },
            deps: [],
          });
        }
        throw new Error('handler failed');
      },
    });
    await expect(Agent()).rejects.toThrow('handler failed');
    expect(log).toEqual(['destroy c', 'destroy b', 'destroy a']);
  });

  it('refuses to change expose for a key', async () => {
    const Agent = createAgent({
      id: 'expose-change',
      handler: async () => {
        await equipResource('k', { create: () => 1, deps: [], expose: true });
        await equipResource('k', { create: () => 1, deps: [], expose: false });
      },
    });
    await expect(Agent()).rejects.toThrow(/re-declared with expose:false/);
  });
});

describe('expectResource', () => {
  it('gives children and grandchildren the resource a parent exposed', async () => {
    const { config } = tracker();
    const Grandchild = createAgent({
      id: 'grandchild',
      handler: async () => expectResource<{ name: string }>('db').name,
    });
    const Child = createAgent({ id: 'child', handler: async () => Grandchild() });
    const Parent = createAgent({
      id: 'parent',
      handler: async () => {
        await equipResource('db', config('shared-db', [], true));
        return Child();
      },
    });
    await expect(Parent()).resolves.toBe('shared-db');
  });

  it('hides non-exposed resources and siblings’ resources', async () => {
    const Sibling = createAgent({
      id: 'sibling',
      handler: async () => {
        await equipResource('own', { create: () => 'mine', deps: [], expose: true });
        return 'ok';
      },
    });
    const Child = createAgent({
      id: 'looker',
      handler: async () => [
        expectResource('private', { optional: true }) ?? 'hidden',
        expectResource('own', { optional: true }) ?? 'hidden',
      ],
    });
    const Parent = createAgent({
      id: 'hider',
      handler: async () => {
        await equipResource('private', { create: () => 'secret', deps: [] });
        await Sibling();
        return Child();
      },
    });
    await expect(Parent()).resolves.toEqual(['hidden', 'hidden']);
  });

  it('throws ResourceNotFoundError with a hint when the key is missing', async () => {
    const Agent = createAgent({ id: 'missing', handler: async () => expectResource('nowhere') });
    const error = await Agent().catch((caught: unknown) => caught);
    expect(ResourceNotFoundError.is(error)).toBe(true);
    expect((error as Error).message).toContain("equipResource('nowhere', { ..., expose: true })");
  });

  it('resolves to the nearest exposing ancestor', async () => {
    const Leaf = createAgent({ id: 'leaf', handler: async () => expectResource<string>('config') });
    const Middle = createAgent({
      id: 'middle',
      handler: async () => {
        await equipResource('config', { create: () => 'middle', deps: [], expose: true });
        return Leaf();
      },
    });
    const Top = createAgent({
      id: 'top',
      handler: async () => {
        await equipResource('config', { create: () => 'top', deps: [], expose: true });
        return [await Middle(), expectResource<string>('config')];
      },
    });
    await expect(Top()).resolves.toEqual(['middle', 'top']);
  });
});
