import { describe, expect, it } from 'vitest';
import { childFingerprint } from '../agent/call-child.js';
import { createAgent } from '../agent/create-agent.js';
import { executeRun } from '../agent/execute-run.js';
import { childRunIdOf } from '../children/child-run-id.js';
import type { JournalEntry } from '../context/run-services.js';
import { createEmbeddedServices } from '../embedded/create-embedded-services.js';
import { InMemoryRunJournal } from '../embedded/in-memory-run-journal.js';
import { equipFleetMemo } from '../hooks/equip-fleet-memo.js';
import { equipMemo } from '../hooks/equip-memo.js';
import { NonPortableJsonError } from '../json/non-portable-json-error.js';
import {
  changedParts,
  fingerprintFormat,
  fingerprintInFormatOf,
  hashJson,
  partedFingerprint,
} from './fingerprint.js';
import { modelTurnFingerprints } from './model-turn.js';

// Every literal below was computed with the fingerprint writer as it was before
// json/canonical-json.ts existed (JSON.stringify of a key-sorted copy). A changed literal means
// journals recorded by older workers no longer replay: never update one to make a test pass.

const unicode = { ключ: 'значение 🚀', emoji: '👩‍👩‍👧', esc: 'tab\t"quote"\\ \u2028 \u0000', cjk: '漢字' };

describe('hashJson', () => {
  it.each([
    [
      'nested objects with unsorted keys',
      { zeta: { b: [3, { y: 1, x: 2 }], a: null }, alpha: true, mid: 'm' },
      '7e9f7ae7ad7d1ac1',
    ],
    ['arrays', [3, 'two', [1, [false, {}]], []], 'a458ef3825be0ec3'],
    ['unicode strings and escapes', unicode, 'd6c316a0746286c9'],
    ['lone surrogates', ['\ud800', 'a\udc00b'], '8861264581b4b07e'],
    [
      'numbers, -0 and 1e21 among them',
      [0, -0, 1, -1.5, 1e21, 1e-7, 123456789012345680000, 0.1 + 0.2, Number.MAX_SAFE_INTEGER],
      'cdfdfab999361b02',
    ],
    [
      'undefined properties (left out)',
      { b: 1, a: undefined, c: { d: undefined, e: 'x' } },
      'dc4c5af568d1ff40',
    ],
    [
      'integer-like keys (array indices first, by number)',
      { 10: 'ten', 9: 'nine', b: 1, B: 2, a: 3, '': 4, é: 5, 'e\u0301': 6 },
      '44f49287b5731d49',
    ],
    ['a null-prototype object', Object.assign(Object.create(null), { z: 1, a: 2 }), 'c2985c5ba6f7d2a5'],
    ['an empty object', {}, '44136fa355b3678a'],
    ['a string', 'plain', '945603a8f587786b'],
    ['null', null, '74234e98afe7498f'],
  ])('hashes %s exactly as recorded journals expect', (_name, value, expected) => {
    expect(hashJson(value)).toBe(expected);
  });

  it('gives the same hashes when they come from its memo of recent texts, and past its bound', () => {
    expect(hashJson({ alpha: true })).toBe(hashJson({ alpha: true }));
    for (let n = 0; n < 1100; n++) hashJson({ n });
    expect(hashJson({})).toBe('44136fa355b3678a');
    expect(hashJson('plain')).toBe('945603a8f587786b');
    expect(hashJson('x'.repeat(2000))).toBe(hashJson('x'.repeat(2000)));
  });

  it('builds the step fingerprints of tools, model turns, memo and fleet memo as before', () => {
    expect(`tool:add:${hashJson({ b: 3, a: 2 })}`).toBe('tool:add:206f7b5543e6f2ef');
    expect(`model-turn:${hashJson(['root/agent:adder:0', 1])}`).toBe('model-turn:8eb19f6f26ff43cd');
    expect(`memo:tools:${hashJson(['/data', { depth: 2 }])}`).toBe('memo:tools:2ea2bb909e59de2f');
    expect(`fleet-memo:tools:${hashJson([{ url: 'http://x', v: 1 }])}`).toBe(
      'fleet-memo:tools:2645616fec8b3aca',
    );
  });

  it('refuses what used to hash silently wrong, naming the path', () => {
    for (const value of [{ at: new Date(0) }, { seen: new Map() }, [Number.NaN], { run: () => 1 }]) {
      expect(() => hashJson(value)).toThrow(NonPortableJsonError);
    }
    expect(() => hashJson({ at: new Date(0) }, 'Props of child agent "x"')).toThrow(
      /Props of child agent "x" must be plain JSON.*"\$\.at".*class:Date/,
    );
  });
});

describe('childFingerprint', () => {
  it('fingerprints child calls as before, also without props', () => {
    expect(childFingerprint('researcher', { topic: 'tides', depth: 2, sources: ['a', 'b'] })).toBe(
      'agent:researcher:f421732c490efdce',
    );
    expect(childFingerprint('writer', { style: { tone: 'dry', length: 300 }, brief: 'Ø' })).toBe(
      'agent:writer:259edab0b187e466',
    );
    expect(childFingerprint('planner', undefined)).toBe('agent:planner:eb045d78d2731073');
  });
});

describe('childRunIdOf', () => {
  it('gives the child run ids it gave before (a replay must find the child it enqueued)', () => {
    expect(childRunIdOf('order-42', 'order-42', 'root/agent:planner:0/g1/agent:researcher:2', 0)).toBe(
      'order-42.1811f03a98c00c66',
    );
    const deep = 'root/agent:planner:0/g1/agent:researcher:2/g0/agent:deep:0';
    expect(childRunIdOf('order-42', 'order-42.0123456789abcdef', deep, 3)).toBe('order-42.efbe21c11f99c5dc');
  });
});

describe('a journal recorded before the canonical JSON module', () => {
  it('replays: memo, fleet memo and child calls come from the journal, not from new work', async () => {
    const work: string[] = [];
    const Summarizer = createAgent({
      id: 'summarizer',
      handler: async (_props?: Record<string, unknown>) => {
        work.push('child');
        return 'live summary';
      },
    });
    const Planner = createAgent({
      id: 'planner',
      handler: async () => {
        const deps = [{ url: 'http://mcp.local', headers: { b: '2', a: '1' } }, -0, 1e21, 'ünïcode'];
        const tools = await equipMemo('tools', () => work.push('memo'), deps);
        const catalog = await equipFleetMemo('catalog', () => work.push('fleet-memo'), [
          { region: 'eu', 10: 'x', 9: 'y' },
        ]);
        const props = { topic: 'tides', sources: ['b', 'a'], limits: { z: 1, a: 2 }, note: undefined };
        return { tools, catalog, summary: await Summarizer(props), bare: await Summarizer() };
      },
    });
    const at = 1_700_000_000_000;
    const recorded = (kind: JournalEntry['kind'], fingerprint: string, value: unknown): JournalEntry => ({
      kind,
      fingerprint,
      outcome: { ok: true, value },
      at,
    });
    const journal = new InMemoryRunJournal([
      [
        'root/agent:planner:0/g0/memo:tools:0',
        recorded('memo', 'memo:tools:2d7e352f66efebb2', 'recorded tools'),
      ],
      [
        'root/agent:planner:0/g0/memo:catalog:0',
        recorded('memo', 'fleet-memo:catalog:536a0fb09c39b3a6', 'recorded catalog'),
      ],
      [
        'root/agent:planner:0/g0/agent:summarizer:0',
        recorded('child', 'agent:summarizer:e5f16147ae8682c1', 'recorded summary'),
      ],
      [
        'root/agent:planner:0/g0/agent:summarizer:1',
        recorded('child', 'agent:summarizer:44136fa355b3678a', 'bare'),
      ],
    ]);
    const services = createEmbeddedServices({ journal });
    const outcome = await executeRun({ agent: Planner, input: {}, services });
    expect(outcome.output).toEqual({
      tools: 'recorded tools',
      catalog: 'recorded catalog',
      summary: 'recorded summary',
      bare: 'bare',
    });
    expect(work).toEqual([]);
  });
});

describe('versioned fingerprints', () => {
  const turn = {
    turnIndex: 1,
    model: { id: 'gpt-x', provider: 'openai' } as never,
    request: { messages: [], tools: [{ name: 'b' }, { name: 'a' }] as never },
    prompt: [{ role: 'system' as const, content: 'Be brief.' }],
  };

  it('builds model turn fingerprints in format v2 (parts) and in the first format, as recorded journals expect', () => {
    const [current, first] = modelTurnFingerprints('root/agent:adder:0', turn);
    expect(first).toBe('model-turn:8eb19f6f26ff43cd');
    expect(current).toBe(
      'model-turn/v2:position=8eb19f6f,model=c4b6b0f3,tools=0473ef2d,prompt=2a6137b4,output=74234e98',
    );
    // Tool order does not matter; the names do.
    const reordered = { ...turn, request: { messages: [], tools: [{ name: 'a' }, { name: 'b' }] as never } };
    expect(modelTurnFingerprints('root/agent:adder:0', reordered)[0]).toBe(current);
  });

  it('names the parts that changed, and compares a recorded fingerprint with the one of its format', () => {
    const a = partedFingerprint('model-turn/v2', { position: 1, model: 'a', tools: [] });
    const b = partedFingerprint('model-turn/v2', { position: 1, model: 'b', tools: ['x'] });
    expect(changedParts(a, b)).toEqual(['model', 'tools']);
    expect(changedParts(a, 'tool:add:1')).toEqual([]);
    expect(fingerprintFormat(a)).toBe('model-turn/v2');
    expect(fingerprintFormat('progress')).toBe('progress');
    expect(fingerprintInFormatOf('model-turn:123', [a, 'model-turn:456'])).toBe('model-turn:456');
    expect(fingerprintInFormatOf('tool:x:1', [a, 'model-turn:456'])).toBe(a);
  });
});
