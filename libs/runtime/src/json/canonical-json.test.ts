import { describe, expect, it } from 'vitest';
import { isCanonicalAsIs, localJson, portableJson } from './canonical-json.js';
import { NonPortableJsonError } from './non-portable-json-error.js';

/** The fingerprint writer before this module: JSON.stringify of a key-sorted copy. */
function legacyFingerprintJson(value: unknown): string {
  const sortKeys = (item: unknown): unknown => {
    if (Array.isArray(item)) return item.map(sortKeys);
    if (item === null || typeof item !== 'object') return item;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(item).sort())
      sorted[key] = sortKeys((item as Record<string, unknown>)[key]);
    return sorted;
  };
  return JSON.stringify(sortKeys(value)) ?? 'undefined';
}

/** A small seeded generator (mulberry32), so a failure reproduces. */
function randomSource(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KEYS = [
  'a',
  'B',
  'b',
  '',
  '0',
  '9',
  '10',
  '01',
  '-1',
  '4294967294',
  '4294967295',
  'é',
  'e\u0301',
  '🚀',
  'ключ',
  '$x',
];
const STRINGS = ['', 'plain', 'ünïcode', '👩‍👩‍👧', '\ud800', 'tab\t"q"\\', '\u2028\u0000', '漢字'];
const NUMBERS = [0, -0, 1, -1.5, 1e21, 1e-7, 5e-324, 1.7976931348623157e308, 0.1 + 0.2, 2 ** 53, -(2 ** 31)];

function randomJson(random: () => number, depth: number): unknown {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const kind = Math.floor(random() * (depth > 0 ? 7 : 4));
  if (kind === 0) return pick([null, true, false]);
  if (kind === 1) return pick(STRINGS);
  if (kind === 2) return pick(NUMBERS);
  if (kind === 3) return random() * 1e6 - 5e5;
  if (kind === 4)
    return Array.from({ length: Math.floor(random() * 4) }, () => randomJson(random, depth - 1));
  const record: Record<string, unknown> = {};
  for (let field = Math.floor(random() * 5); field > 0; field--)
    record[pick(KEYS)] = random() < 0.15 ? undefined : randomJson(random, depth - 1);
  return record;
}

describe('portableJson', () => {
  it('writes every plain JSON value byte for byte as fingerprints were written before', () => {
    const random = randomSource(8);
    for (let sample = 0; sample < 2000; sample++) {
      const value = randomJson(random, 4);
      expect(portableJson(value)).toBe(legacyFingerprintJson(value));
    }
  });

  it('writes a value that is canonical as it stands with JSON.stringify, and only such a value', () => {
    const random = randomSource(15);
    let asIs = 0;
    for (let sample = 0; sample < 4000; sample++) {
      const value = randomJson(random, 3);
      if (!isCanonicalAsIs(value, 0)) continue;
      asIs++;
      expect(JSON.stringify(value)).toBe(legacyFingerprintJson(value));
    }
    expect(asIs).toBeGreaterThan(1000);
    expect(isCanonicalAsIs(['root/agent:a:0', 1, [['system', 'Be brief.']], { a: 1, b: [null] }], 0)).toBe(
      true,
    );
    const deep: unknown[] = [];
    deep.push(deep);
    const leftToTheWalk = [
      { b: 1, a: 2 },
      { 1: 'x' },
      { a: undefined },
      // biome-ignore lint/suspicious/noSparseArray: the hole is the point
      [1, , 2],
      deep,
      new Date(0),
      -Infinity,
    ];
    for (const value of leftToTheWalk) expect(isCanonicalAsIs(value, 0)).toBe(false);
  });

  it('gives structurally equal values the same text whatever their key order', () => {
    expect(portableJson({ b: [1, { d: 1, c: 2 }], a: 'x' })).toBe(
      portableJson({ a: 'x', b: [1, { c: 2, d: 1 }] }),
    );
    expect(portableJson({ 10: 1, 9: 2, x: 3 })).toBe('{"9":2,"10":1,"x":3}');
  });

  it('accepts the same object twice when it is not a cycle', () => {
    const shared = { id: 1 };
    expect(portableJson([shared, { again: shared }])).toBe('[{"id":1},{"again":{"id":1}}]');
  });

  const cycle: Record<string, unknown> = { name: 'loop' };
  cycle.self = cycle;
  class Tool {
    name = 'search';
  }
  it.each([
    ['undefined at the top', undefined, '$', 'undefined'],
    ['undefined in an array', [1, undefined], '$[1]', 'undefined'],
    // biome-ignore lint/suspicious/noSparseArray: the hole is the point
    ['an array hole', [1, , 3], '$[1]', 'undefined'],
    ['a Date', { fetchedAt: new Date(0) }, '$.fetchedAt', 'class:Date'],
    ['a Map', { byId: new Map([[1, 'a']]) }, '$.byId', 'class:Map'],
    ['a Set', [new Set([1])], '$[0]', 'class:Set'],
    ['a class instance', { tools: [new Tool()] }, '$.tools[0]', 'class:Tool'],
    ['a boxed string', { s: new String('x') }, '$.s', 'class:String'],
    ['NaN', { score: Number.NaN }, '$.score', 'NaN'],
    ['Infinity', [Number.NEGATIVE_INFINITY], '$[0]', '-Infinity'],
    ['a bigint', { big: 1n }, '$.big', 'bigint'],
    ['a function', { 'on-done': () => 1 }, '$["on-done"]', 'function'],
    ['a symbol', { tag: Symbol('t') }, '$.tag', 'symbol'],
    ['a cycle', { loop: cycle }, '$.loop.self', 'circular reference'],
    ['an own __proto__ key', JSON.parse('{"a":{"__proto__":{"x":1}}}'), '$.a.__proto__', '"__proto__" key'],
  ])('refuses %s, naming the path and the reason', (_name, value, path, reason) => {
    let thrown: unknown;
    try {
      portableJson(value, 'Deps of "tools"');
    } catch (error) {
      thrown = error;
    }
    expect(NonPortableJsonError.is(thrown)).toBe(true);
    expect(thrown).toMatchObject({ path, reason });
    expect((thrown as Error).message).toContain(`Deps of "tools" must be plain JSON`);
  });
});

describe('localJson', () => {
  it('writes plain JSON like portable mode', () => {
    const random = randomSource(21);
    for (let sample = 0; sample < 200; sample++) {
      const value = JSON.parse(JSON.stringify(randomJson(random, 4)) ?? 'null') as unknown;
      expect(localJson(value)).toBe(portableJson(value));
    }
  });

  it('never throws, and tags what JSON cannot hold', () => {
    // biome-ignore lint/suspicious/noSparseArray: the hole is the point
    expect(localJson([undefined, { a: undefined }, Number.NaN, 12n, , -0])).toBe(
      '[{"$undefined":true},{"a":{"$undefined":true}},{"$number":"NaN"},{"$bigint":"12"},{"$undefined":true},0]',
    );
  });

  it('writes functions, symbols, class instances and cycles as identity tokens of this process', () => {
    const run = () => 1;
    const date = new Date(0);
    const symbol = Symbol('s');
    expect(localJson([run, date, symbol])).toBe(localJson([run, date, symbol]));
    expect(localJson([run])).not.toBe(localJson([() => 1]));
    expect(localJson([date])).not.toBe(localJson([new Date(0)]));
    expect(localJson([symbol])).not.toBe(localJson([Symbol('s')]));
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(localJson(cycle)).toMatch(/^\{"self":\{"\$local":\d+\}\}$/);
  });
});
