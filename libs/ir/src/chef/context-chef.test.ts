import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { IRValidationError } from '../errors.js';
import { adapterRegistry } from '../registry/adapter-registry.js';
import type { BuiltinPayloads } from '../registry/builtin-payloads.js';
import type { Message } from '../types/message.js';
import type { CompileContext, ITargetAdapter, TargetPayload } from '../types/target-adapter.js';
import { CHEF_SNAPSHOT_SCHEMA_VERSION, type ChefSnapshot } from './chef-snapshot.js';
import { ContextChef } from './context-chef.js';
import { UnsupportedSnapshotVersionError } from './unsupported-snapshot-version-error.js';

const SOURCE = 'context-chef-test';

/** A real target adapter that echoes what it was given, so tests can see what compile passed. */
class EchoAdapter implements ITargetAdapter<TargetPayload & { label: string; seen: Message[] }> {
  readonly calls: Array<{ messages: Message[]; context: CompileContext | undefined }> = [];
  constructor(readonly label: string) {}
  compile(messages: Message[], context?: CompileContext) {
    this.calls.push({ messages, context });
    context?.onWarning?.({ code: 'echo-warning', message: `${this.label} saw ${messages.length} messages` });
    return { label: this.label, seen: messages, messages };
  }
}

const call = (id: string) => ({
  id,
  type: 'function' as const,
  function: { name: 'lookup', arguments: '{"a":1}' },
});

afterEach(() => adapterRegistry.unregisterBySource(SOURCE));

describe('ContextChef system prompt and history', () => {
  it('turns a string system prompt into one system message, and an empty string into none', async () => {
    const echo = new EchoAdapter('e');
    const chef = new ContextChef({ defaultTarget: echo });
    chef.setSystemPrompt('be brief');
    expect(chef.getSystemPrompt()).toEqual([{ role: 'system', content: 'be brief' }]);
    chef.setSystemPrompt('');
    expect(chef.getSystemPrompt()).toEqual([]);
  });

  it('compiles the system prompt before the history, in order', async () => {
    const echo = new EchoAdapter('e');
    const system: Message[] = [
      { role: 'system', content: 'one' },
      { role: 'system', content: 'two' },
    ];
    const chef = new ContextChef().setSystemPrompt(system).setHistory([{ role: 'user', content: 'hi' }]);
    const payload = await chef.compile({ target: echo });
    expect(payload.seen.map((m) => m.content)).toEqual(['one', 'two', 'hi']);
  });

  it('does not sanitise a history set by hand', async () => {
    const history: Message[] = [
      { role: 'assistant', content: 'leading assistant', tool_calls: [call('c1')] },
      { role: 'tool', content: 'orphan', tool_call_id: 'nobody' },
    ];
    const chef = new ContextChef().setHistory(history);
    expect(chef.getHistory()).toEqual(history);
    const echo = new EchoAdapter('e');
    expect((await chef.compile({ target: echo })).seen).toEqual(history);
  });

  it('hands out copies of its lists, so callers cannot change its state by accident', () => {
    const chef = new ContextChef().setHistory([{ role: 'user', content: 'hi' }]);
    chef.getHistory().push({ role: 'user', content: 'sneaky' });
    chef.getSystemPrompt().push({ role: 'system', content: 'sneaky' });
    expect(chef.getHistory()).toHaveLength(1);
    expect(chef.getSystemPrompt()).toHaveLength(0);
  });
});

describe('ContextChef.compile', () => {
  it('returns a Promise', () => {
    const result = new ContextChef().compile({ target: new EchoAdapter('e') });
    expect(result).toBeInstanceOf(Promise);
    return result;
  });

  it('uses options.target first, then defaultTarget, then the openai built-in', async () => {
    const first = new EchoAdapter('first');
    adapterRegistry.register('chef-test-default', new EchoAdapter('default'), SOURCE);
    const chef = new ContextChef({ defaultTarget: 'chef-test-default' }).setHistory([
      { role: 'user', content: 'hi' },
    ]);
    expect((await chef.compile({ target: first })).label).toBe('first');
    expect((await chef.compile()).label).toBe('default');
    const fallback = await new ContextChef().setHistory([{ role: 'user', content: 'hi' }]).compile();
    expect(fallback.messages).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('routes a registered name through the registry and an instance around it', async () => {
    const registered = new EchoAdapter('registered');
    adapterRegistry.register('chef-test-cohere', registered, SOURCE);
    const chef = new ContextChef().setHistory([{ role: 'user', content: 'hi' }]);
    const payload = await chef.compile({ target: 'chef-test-cohere' });
    expect(payload.label).toBe('registered');
    expect(registered.calls).toHaveLength(1);
  });

  it('rejects an unregistered target name with the registry message', async () => {
    const chef = new ContextChef();
    await expect(chef.compile({ target: 'chef-test-missing' })).rejects.toThrow(
      /Unknown adapter target: "chef-test-missing"/,
    );
  });

  it('collects the warnings the target reports into payload.meta.warnings', async () => {
    const chef = new ContextChef().setHistory([{ role: 'user', content: 'hi' }]);
    const payload = await chef.compile({ target: new EchoAdapter('e') });
    expect(payload.meta.warnings).toEqual([{ code: 'echo-warning', message: 'e saw 1 messages' }]);
  });

  it('reports a built-in degradation once in meta.warnings', async () => {
    const chef = new ContextChef().setHistory([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'ok', redacted_thinking: { data: 'opaque' } },
      { role: 'user', content: 'more' },
    ]);
    const payload = await chef.compile({ target: 'openai' });
    const codes = payload.meta.warnings.map((warning) => warning.code);
    expect(codes.length).toBeGreaterThan(0);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('passes tools to the target only when there are some', async () => {
    const echo = new EchoAdapter('e');
    const chef = new ContextChef();
    const tools = [{ name: 'lookup', description: 'finds things', parameters: { type: 'object' } }];
    await chef.compile({ target: echo, tools });
    await chef.compile({ target: echo, tools: [] });
    expect(echo.calls[0]?.context?.tools).toEqual(tools);
    expect(echo.calls[1]?.context).not.toHaveProperty('tools');
  });

  it('rejects with the abort reason, without compiling, when the signal is aborted', async () => {
    const echo = new EchoAdapter('e');
    const controller = new AbortController();
    controller.abort(new Error('user cancelled'));
    await expect(new ContextChef().compile({ target: echo, signal: controller.signal })).rejects.toThrow(
      'user cancelled',
    );
    expect(echo.calls).toHaveLength(0);
  });

  it('never changes the stored history (a trailing prefill stays in the chef)', async () => {
    const history: Message[] = [
      { role: 'user', content: 'answer in JSON' },
      { role: 'assistant', content: '{' },
    ];
    const chef = new ContextChef().setHistory(history);
    const payload = await chef.compile({ target: 'openai' });
    expect(JSON.stringify(payload.messages)).toContain('{');
    expect(chef.getHistory()).toEqual(history);
  });

  it('types the payload per built-in literal, per adapter instance and per default target', async () => {
    const chef = new ContextChef({ defaultTarget: 'anthropic' });
    expectTypeOf(chef.compile()).resolves.toMatchTypeOf<BuiltinPayloads['anthropic']>();
    expectTypeOf(chef.compile({ target: 'gemini' })).resolves.toMatchTypeOf<BuiltinPayloads['gemini']>();
    expectTypeOf(chef.compile({ target: new EchoAdapter('e') })).resolves.toHaveProperty('label');
    const payload = await new ContextChef().setHistory([{ role: 'user', content: 'x' }]).compile();
    expectTypeOf(payload).toMatchTypeOf<BuiltinPayloads['openai']>();
    expect(payload.meta.warnings).toEqual([]);
  });

  it('rejects a target that is neither a name nor an adapter', async () => {
    const target = 42 as unknown as string;
    await expect(new ContextChef().compile({ target })).rejects.toSatisfy(IRValidationError.is);
  });
});

describe('ContextChef snapshot / restore', () => {
  function filledChef() {
    return new ContextChef({ defaultTarget: 'gemini' }).setSystemPrompt('be brief').setHistory([
      { role: 'user', content: 'look', attachments: [{ mediaType: 'image/png', data: 'iVBOR' }] },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ ...call('c1'), thoughtSignature: 'sig' }],
        thinking: { thinking: 'hm', signature: 's' },
        _openai_reasoning: [{ type: 'reasoning', encrypted_content: 'enc' }],
      },
      { role: 'tool', content: '42', tool_call_id: 'c1', name: 'lookup' },
    ]);
  }

  it('is plain JSON with a schemaVersion, the system prompt, history and a named default target', () => {
    const snapshot = filledChef().snapshot();
    expect(JSON.parse(JSON.stringify(snapshot))).toEqual(snapshot);
    expect(snapshot.schemaVersion).toBe(CHEF_SNAPSHOT_SCHEMA_VERSION);
    expect(snapshot.system).toEqual([{ role: 'system', content: 'be brief' }]);
    expect(snapshot.history).toHaveLength(3);
    expect(snapshot.defaultTarget).toBe('gemini');
  });

  it('leaves out a default target that is an adapter instance', () => {
    const snapshot = new ContextChef({ defaultTarget: new EchoAdapter('e') }).snapshot();
    expect(snapshot).not.toHaveProperty('defaultTarget');
  });

  it('restores on another chef exactly, through a JSON string, with the same compile output', async () => {
    const original = filledChef();
    const stored = JSON.stringify(original.snapshot());
    const restored = new ContextChef().restore(JSON.parse(stored));
    expect(restored.getHistory()).toEqual(original.getHistory());
    expect(restored.getSystemPrompt()).toEqual(original.getSystemPrompt());
    expect(await restored.compile()).toEqual(await original.compile());
  });

  it('is isolated from later changes in both directions, and can be restored many times', () => {
    const chef = filledChef();
    const snapshot = chef.snapshot();
    const [, assistant] = chef.getHistory();
    assistant?.tool_calls?.push(call('c2'));
    expect(snapshot.history[1]?.tool_calls).toHaveLength(1);

    const restored = new ContextChef().restore(snapshot);
    restored.getHistory()[1]?.tool_calls?.push(call('c3'));
    const thinking = restored.getHistory()[1]?.thinking;
    if (thinking) thinking.thinking = 'changed';
    expect(snapshot.history[1]?.tool_calls).toHaveLength(1);
    expect(snapshot.history[1]?.thinking?.thinking).toBe('hm');
    expect(new ContextChef().restore(snapshot).getHistory()[1]?.tool_calls).toHaveLength(1);
  });

  it('returns the chef from restore, and fromSnapshot builds one', () => {
    const chef = new ContextChef();
    const snapshot = filledChef().snapshot();
    expect(chef.restore(snapshot)).toBe(chef);
    expect(ContextChef.fromSnapshot(snapshot).getHistory()).toEqual(snapshot.history);
  });

  it('keeps pending tool calls pending (restore does not sanitise)', () => {
    const snapshot: ChefSnapshot = {
      schemaVersion: 1,
      system: [],
      history: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: '', tool_calls: [call('c1')] },
      ],
    };
    expect(new ContextChef().restore(snapshot).getHistory()).toEqual(snapshot.history);
  });

  it('restores the named default target', async () => {
    adapterRegistry.register('chef-test-restored', new EchoAdapter('restored'), SOURCE);
    const snapshot = new ContextChef({ defaultTarget: 'chef-test-restored' }).snapshot();
    const payload = await ContextChef.fromSnapshot(snapshot).compile();
    expect(payload).toHaveProperty('label', 'restored');
  });

  it.each([
    ['not an object', 'nope', 'snapshot'],
    ['no schemaVersion', { system: [], history: [] }, 'schemaVersion'],
    ['a fractional schemaVersion', { schemaVersion: 1.5, system: [], history: [] }, 'schemaVersion'],
    ['history not a list', { schemaVersion: 1, system: [], history: {} }, 'history'],
    [
      'a message without content',
      { schemaVersion: 1, system: [], history: [{ role: 'user' }] },
      'history[0].content',
    ],
    [
      'an unknown role',
      { schemaVersion: 1, system: [{ role: 'robot', content: '' }], history: [] },
      'system[0].role',
    ],
    [
      'tool call arguments that are not text',
      {
        schemaVersion: 1,
        system: [],
        history: [
          {
            role: 'assistant',
            content: '',
            tool_calls: [{ id: 'c', type: 'function', function: { name: 'x', arguments: {} } }],
          },
        ],
      },
      'history[0].tool_calls[0].function.arguments',
    ],
    [
      'an attachment without data',
      {
        schemaVersion: 1,
        system: [],
        history: [{ role: 'user', content: '', attachments: [{ mediaType: 'image/png' }] }],
      },
      'history[0].attachments[0].data',
    ],
    [
      'a non-text default target',
      { schemaVersion: 1, system: [], history: [], defaultTarget: 3 },
      'defaultTarget',
    ],
  ])('rejects a snapshot with %s, naming the path', (_case, snapshot, path) => {
    const chef = filledChef();
    const before = chef.getHistory();
    let thrown: unknown;
    try {
      chef.restore(snapshot);
    } catch (error) {
      thrown = error;
    }
    expect(IRValidationError.is(thrown)).toBe(true);
    expect((thrown as IRValidationError).path).toBe(path);
    expect(chef.getHistory()).toEqual(before);
  });

  it('rejects a snapshot from a newer schema version with a typed error', () => {
    let thrown: unknown;
    try {
      new ContextChef().restore({ schemaVersion: CHEF_SNAPSHOT_SCHEMA_VERSION + 1, system: [], history: [] });
    } catch (error) {
      thrown = error;
    }
    expect(UnsupportedSnapshotVersionError.is(thrown)).toBe(true);
    expect(thrown).toMatchObject({ found: 2, supported: 1 });
    expect((thrown as Error).message).toMatch(/Upgrade @flotilla\/ir/);
  });

  it('refuses to snapshot a passthrough value JSON cannot store', () => {
    const chef = new ContextChef().setHistory([{ role: 'user', content: 'x', _big: 10n }]);
    expect(() => chef.snapshot()).toThrow(IRValidationError);
  });
});
