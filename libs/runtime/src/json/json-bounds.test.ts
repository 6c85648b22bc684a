import { describe, expect, it } from 'vitest';
import { checkJsonBounds, inspectJson, jsonTextWithinBounds, parseBoundedJson } from './json-bounds.js';
import { NotJsonError, PayloadTooLargeError, ValueTooDeepError } from './json-bounds-errors.js';

/** `[[…[1]…]]` with `levels` arrays. */
function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < levels; level++) value = [value];
  return value;
}

const limits = { maxDepth: 64, maxBytes: 1024 * 1024 };

describe('checkJsonBounds', () => {
  it('accepts a value nested exactly to the limit and refuses one level more, naming source, path and limit', () => {
    expect(() => checkJsonBounds(nested(64), 'the job input', limits)).not.toThrow();
    const error = captured(() => checkJsonBounds(nested(65), 'the job input', limits));
    expect(ValueTooDeepError.is(error)).toBe(true);
    expect(error).toMatchObject({ source: 'the job input', maxDepth: 64, path: '0.0.0.…(58 more).0.0.0' });
    expect((error as Error).message).toMatch(/^The job input is nested more than 64 levels deep/);
  });

  it('refuses a value nested 100,000 levels deep without overflowing the stack', () => {
    expect(() => JSON.stringify(nested(100_000))).toThrow(RangeError);
    expect(() => checkJsonBounds(nested(100_000), 'tool "t" output', limits)).toThrow(ValueTooDeepError);
  });

  it('counts the bytes JSON.stringify writes, escapes and UTF-8 included', () => {
    const values = [
      { a: [1, 2.5, -0, 1e21, true, false, null], 'k"\\': 'é\n\u0001😀', '\ud800': 'lone' },
      [],
      {},
      'x',
      [[[{}]]],
      { __proto__: null, z: 'y' },
    ];
    for (const value of values) {
      expect(inspectJson(value).bytes).toBe(Buffer.byteLength(JSON.stringify(value), 'utf8'));
    }
  });

  it('refuses a value larger than maxBytes with PayloadTooLargeError naming the source', () => {
    const error = captured(() =>
      checkJsonBounds({ text: 'x'.repeat(100) }, 'an event', { maxDepth: 8, maxBytes: 50 }),
    );
    expect(PayloadTooLargeError.is(error)).toBe(true);
    expect(error).toMatchObject({ source: 'an event', maxBytes: 50 });
    expect((error as PayloadTooLargeError).bytes).toBeGreaterThan(50);
  });

  it('accepts a flat array of about 1 MB', () => {
    const flat = Array.from({ length: 150_000 }, (_, index) => index);
    const bytes = Buffer.byteLength(JSON.stringify(flat), 'utf8');
    expect(bytes).toBeGreaterThan(900_000);
    expect(checkJsonBounds(flat, 'the run input', { maxDepth: 1, maxBytes: bytes })).toBe(bytes);
    expect(() => checkJsonBounds(flat, 'the run input', { maxDepth: 1, maxBytes: bytes - 1 })).toThrow(
      PayloadTooLargeError,
    );
  });

  it.each([
    ['undefined', { a: undefined }, 'a'],
    ['function', [() => 1], '0'],
    ['NaN', { n: Number.NaN }, 'n'],
    ['bigint', { b: 1n }, 'b'],
    ['class:Date', { when: new Date(0) }, 'when'],
    ['class:Map', new Map(), '(root)'],
  ])('refuses %s with NotJsonError naming the path', (reason, value, path) => {
    const error = captured(() => checkJsonBounds(value, 'scope layer 0', limits));
    expect(NotJsonError.is(error)).toBe(true);
    expect(error).toMatchObject({ reason, path, source: 'scope layer 0' });
  });

  it('names a short path in full', () => {
    expect(captured(() => checkJsonBounds({ a: [{ b: () => 1 }] }, 'x', limits))).toMatchObject({
      path: 'a.0.b',
    });
  });

  it('refuses a cycle, but not a value seen twice side by side', () => {
    const shared = { x: 1 };
    expect(() => checkJsonBounds([shared, shared], 'the run input', limits)).not.toThrow();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(captured(() => checkJsonBounds(cyclic, 'the run input', limits))).toMatchObject({
      reason: 'circular reference',
      path: 'self',
    });
  });

  it('measures leniently as JSON.stringify writes: undefined left out, a Date as its text', () => {
    const value = { a: undefined, when: new Date(0), list: [undefined, () => 1, Number.NaN], m: new Map() };
    const inspection = inspectJson(value, { lenient: true });
    expect(inspection.problem).toBeUndefined();
    expect(inspection.bytes).toBe(Buffer.byteLength(JSON.stringify(value), 'utf8'));
    expect(inspectJson({ b: 1n }, { lenient: true }).problem).toMatchObject({
      kind: 'not-json',
      reason: 'bigint',
    });
  });
});

describe('parseBoundedJson', () => {
  it('measures the text before parsing and the depth after', () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    expect(() => parseBoundedJson(deep, 'the arguments of tool call "c1"', limits)).toThrow(
      ValueTooDeepError,
    );
    expect(() => parseBoundedJson(deep, 'x', { maxDepth: 10_000, maxBytes: 100 })).toThrow(
      PayloadTooLargeError,
    );
    expect(parseBoundedJson('{"a":[1]}', 'x', limits)).toEqual({ a: [1] });
    expect(() => parseBoundedJson('{"a":', 'x', limits)).toThrow(SyntaxError);
  });

  it('reads the depth off the text: brackets in strings do not count, the limit itself passes', () => {
    const small = { maxDepth: 2, maxBytes: 1000 };
    const tricky = { a: ['[[[{{{\\', '"]]'] };
    expect(parseBoundedJson(JSON.stringify(tricky), 'x', small)).toEqual(tricky);
    expect(parseBoundedJson(' [ [ ] ] ', 'x', small)).toEqual([[]]);
    expect(captured(() => parseBoundedJson('{"a":{"b":{}}}', 'x', small))).toMatchObject({
      name: ValueTooDeepError.errorName,
      path: 'a.b',
    });
  });
});

describe('inspectJson of a scalar', () => {
  it('counts it, or names what it is, at the root', () => {
    expect(inspectJson('found')).toEqual({ bytes: 7, depth: 0 });
    expect(inspectJson(12.5, { maxBytes: 3 })).toEqual({
      bytes: 4,
      depth: 0,
      problem: { kind: 'too-large', bytes: 4 },
    });
    expect(inspectJson(undefined).problem).toEqual({ kind: 'not-json', path: '(root)', reason: 'undefined' });
    expect(inspectJson(undefined, { lenient: true })).toEqual({ bytes: 4, depth: 0 });
  });
});

function captured(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('jsonTextWithinBounds', () => {
  // What a caller that stringifies first (events, model answers) relies on: the text check
  // never accepts what the walk refuses, brackets and quotes inside strings included.
  const values: unknown[] = [
    { a: '[[[[', b: '\\"{{{', c: ['"]]]"', { d: '\\' }] },
    nested(3),
    nested(4),
    ['x'.repeat(50)],
    { 'k"[': ['é', '😀', '\u0001'] },
    { at: new Date(0), n: Number.NaN, u: undefined },
  ];
  const bounds = [
    { maxDepth: 3, maxBytes: 1024 },
    { maxDepth: 4, maxBytes: 1024 },
    { maxDepth: 8, maxBytes: 40 },
  ];
  it.each(values.map((value) => [JSON.stringify(value), value]))(
    'agrees with the lenient walk on %s',
    (_text, value) => {
      for (const limit of bounds) {
        const text = JSON.stringify(value);
        const walk = inspectJson(value, { ...limit, lenient: true }).problem === undefined;
        expect(jsonTextWithinBounds(text, limit)).toBe(walk);
      }
    },
  );
});
