import { describe, expect, expectTypeOf, it } from 'vitest';
import type { GeminiPayload } from '../gemini/compile-gemini.js';
import { OpenAIAdapter, type OpenAIPayload } from '../openai/compile-openai.js';
import type { ITargetAdapter, TargetPayload } from '../types/target-adapter.js';
import { AdapterRegistry, adapterRegistry, getAdapter } from './adapter-registry.js';
import { UnknownTargetError } from './unknown-target-error.js';

function fakeAdapter(tag: string): ITargetAdapter {
  return { compile: (messages) => ({ messages: [tag, ...messages.map((message) => message.content)] }) };
}

describe('AdapterRegistry', () => {
  it('returns the instance registered under a name', () => {
    const registry = new AdapterRegistry();
    const adapter = fakeAdapter('a');
    registry.register('cohere', adapter);
    expect(registry.get('cohere')).toBe(adapter);
    expect(registry.has('cohere')).toBe(true);
    expect(registry.has('mistral')).toBe(false);
  });

  it('overwrites silently and keeps the name in its registration place', () => {
    const registry = new AdapterRegistry();
    registry.register('a', fakeAdapter('1')).register('b', fakeAdapter('2'));
    const replacement = fakeAdapter('3');
    registry.register('a', replacement);
    expect(registry.get('a')).toBe(replacement);
    expect(registry.list()).toEqual(['a', 'b']);
  });

  it('lists names in registration order', () => {
    const registry = new AdapterRegistry();
    for (const name of ['z', 'a', 'm']) registry.register(name, fakeAdapter(name));
    expect(registry.list()).toEqual(['z', 'a', 'm']);
  });

  it('unregisters a name and treats an unknown name as a no-op', () => {
    const registry = new AdapterRegistry().register('a', fakeAdapter('a'));
    expect(registry.unregister('a')).toBe(true);
    expect(registry.unregister('a')).toBe(false);
    expect(registry.list()).toEqual([]);
  });

  it('unregisterBySource removes exactly the entries of that source', () => {
    const registry = new AdapterRegistry()
      .register('cohere', fakeAdapter('c'), 'my-plugin')
      .register('mine', fakeAdapter('m'))
      .register('mistral', fakeAdapter('s'), 'my-plugin')
      .register('other', fakeAdapter('o'), 'other-plugin');
    expect(registry.unregisterBySource('my-plugin')).toEqual(['cohere', 'mistral']);
    expect(registry.list()).toEqual(['mine', 'other']);
  });

  it('rejects an unknown name with the registered names and what to do', () => {
    const registry = new AdapterRegistry().register('a', fakeAdapter('a')).register('b', fakeAdapter('b'));
    let caught: unknown;
    try {
      registry.get('x');
    } catch (error) {
      caught = error;
    }
    expect(UnknownTargetError.is(caught)).toBe(true);
    expect((caught as Error).message).toBe(
      'Unknown adapter target: "x". Registered: [a, b]. Use adapterRegistry.register("x", ...) before chef.compile().',
    );
    expect(() => new AdapterRegistry().get('x')).toThrow('Registered: (none).');
  });
});

describe('adapterRegistry (the process-wide one)', () => {
  it('holds the four built-ins, which survive clearing another source', () => {
    adapterRegistry.register('test-cohere', fakeAdapter('c'), 'test-source');
    adapterRegistry.unregisterBySource('test-source');
    expect(adapterRegistry.list()).toEqual(['openai', 'anthropic', 'gemini', 'openai-responses']);
    expect(getAdapter('openai')).toBeInstanceOf(OpenAIAdapter);
  });

  it('routes a replaced built-in to the replacement, and the original works again once restored', () => {
    const original = adapterRegistry.get('openai');
    const fork: ITargetAdapter<TargetPayload> = fakeAdapter('fork');
    try {
      adapterRegistry.register('openai', fork, 'test-fork');
      expect(getAdapter('openai').compile([{ role: 'user', content: 'hi' }])).toEqual({
        messages: ['fork', 'hi'],
      });
    } finally {
      adapterRegistry.register('openai', original, 'builtin');
    }
    expect(getAdapter('openai').compile([{ role: 'user', content: 'hi' }]).messages).toEqual([
      { role: 'user', content: 'hi' },
    ]);
  });

  it('types built-in names with their strict payload and other names loosely', () => {
    const payload = getAdapter('gemini').compile([{ role: 'user', content: 'hi' }]);
    expectTypeOf(payload).toEqualTypeOf<GeminiPayload>();
    expectTypeOf(adapterRegistry.get('openai').compile([])).toEqualTypeOf<OpenAIPayload>();
    expectTypeOf(() => getAdapter('cohere' as string)).returns.toEqualTypeOf<ITargetAdapter>();
    expect(payload.messages).toEqual([{ role: 'user', parts: [{ text: 'hi' }] }]);
  });
});
