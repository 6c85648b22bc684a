import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../agent/create-agent.js';
import { runAgent } from '../agent/run-agent.js';
import { ExpectScopeError } from '../errors/agent-errors.js';
import { equipScope } from './equip-scope.js';
import { expectScope } from './expect-scope.js';

const Scope = z.object({
  tenant: z.string().optional(),
  settings: z.record(z.string(), z.unknown()).optional(),
});

describe('equipScope / expectScope', () => {
  it('lets children and grandchildren read ancestor scope, child keys shadowing at the top level only', async () => {
    const Grandchild = createAgent({ id: 'grandchild', handler: async () => expectScope(Scope) });
    const Child = createAgent({
      id: 'child',
      handler: async () => {
        equipScope({ settings: { b: 2 } });
        return Grandchild();
      },
    });
    const Parent = createAgent({
      id: 'parent',
      handler: async () => {
        equipScope({ tenant: 'acme', settings: { a: 1 } });
        return Child();
      },
    });
    await expect(Parent()).resolves.toEqual({ tenant: 'acme', settings: { b: 2 } });
  });

  it('clears an ancestor key with an explicit undefined', async () => {
    const Child = createAgent({
      id: 'clearing-child',
      handler: async () => {
        equipScope({ tenant: undefined });
        return expectScope(Scope);
      },
    });
    const Parent = createAgent({
      id: 'clearing-parent',
      handler: async () => {
        equipScope({ tenant: 'acme' });
        return Child();
      },
    });
    await expect(Parent()).resolves.toEqual({});
  });

  it('keeps siblings apart', async () => {
    const Writer = createAgent({
      id: 'writer',
      handler: async () => {
        equipScope({ tenant: 'mine' });
        return 'ok';
      },
    });
    const Reader = createAgent({ id: 'reader', handler: async () => expectScope(Scope) });
    const Parent = createAgent({
      id: 'siblings',
      handler: async () => {
        await Writer();
        return Reader();
      },
    });
    await expect(Parent()).resolves.toEqual({});
  });

  it('fails with ScopeError listing issues when required values are missing or invalid', async () => {
    const Agent = createAgent({
      id: 'strict',
      handler: async () => {
        equipScope({ limit: 'many' });
        return expectScope(z.object({ tenant: z.string(), limit: z.number() }));
      },
    });
    const error = await Agent().catch((caught: unknown) => caught);
    expect(ExpectScopeError.is(error)).toBe(true);
    expect((error as Error).name).toBe('ScopeError');
    expect((error as ExpectScopeError).issues.map((issue) => issue.path)).toEqual(['tenant', 'limit']);
  });

  it('returns a deeply frozen value with zod defaults applied', async () => {
    const Agent = createAgent({
      id: 'frozen',
      handler: async () =>
        expectScope(
          z.object({ retries: z.number().default(2), nested: z.object({ a: z.number() }).default({ a: 1 }) }),
        ),
    });
    const scope = await Agent();
    expect(scope).toEqual({ retries: 2, nested: { a: 1 } });
    expect(Object.isFrozen(scope)).toBe(true);
    expect(Object.isFrozen(scope.nested)).toBe(true);
  });

  it('sees submit-time scope layers as the outermost layer', async () => {
    const Agent = createAgent({
      id: 'submitted',
      handler: async () => {
        equipScope({ settings: { own: true } });
        return expectScope(Scope);
      },
    });
    await expect(
      runAgent(Agent, undefined, { scope: [{ tenant: 'from-submit', settings: { x: 1 } }] }),
    ).resolves.toEqual({
      tenant: 'from-submit',
      settings: { own: true },
    });
  });

  it.each([
    ['a function', { f: () => 1 }, 'function'],
    ['a symbol', { s: Symbol('x') }, 'symbol'],
    ['a Date', { d: new Date() }, 'class:Date'],
    ['a nested Map', { a: { m: new Map() } }, 'class:Map'],
    ['a function in an array', { list: [1, () => 2] }, 'function'],
  ])('rejects %s with a TypeError', async (_label, layer, reason) => {
    const Agent = createAgent({ id: 'bad-scope', handler: async () => equipScope(layer) });
    await expect(Agent()).rejects.toThrow(TypeError);
    await expect(Agent()).rejects.toThrow(reason);
  });
});
