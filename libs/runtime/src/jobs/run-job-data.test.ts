import { describe, expect, it } from 'vitest';
import { PayloadTooLargeError } from '../json/json-bounds-errors.js';
import { InvalidRunInputError } from './job-data-errors.js';
import { decodeRunJobData, encodeRunJobData } from './run-job-data.js';

/** Limits of `maxBytes` bytes and 64 levels. */
const within = (maxBytes: number) => ({ maxBytes, maxDepth: 64 });

describe('run job data', () => {
  it('round-trips input, conversation id and scope', () => {
    const data = encodeRunJobData({ q: 'é' }, { conversationId: 'c', scope: [{ tenant: 't' }] });
    expect(decodeRunJobData(JSON.parse(JSON.stringify(data)), within(100))).toEqual({
      input: { q: 'é' },
      conversationId: 'c',
      scope: [{ tenant: 't' }],
    });
  });

  it("round-trips a child run's place in its tree", () => {
    const child = {
      callPath: 'root/agent:p:0/g0/agent:c:0',
      depth: 1,
      parentRunId: 'r',
      rootRunId: 'r',
      modelId: 'gpt',
    };
    const data = encodeRunJobData({ n: 1 }, { scope: [{ tenant: 't' }], child });
    expect(decodeRunJobData(JSON.parse(JSON.stringify(data)), within(100))).toMatchObject({
      input: { n: 1 },
      child,
    });
  });

  it('decodes input alone (no schema pass) as the schema would, with the same bounds and errors', () => {
    const alone = decodeRunJobData({ input: '{"q":[1,2]}' }, within(100));
    expect(alone).toStrictEqual({ input: { q: [1, 2] } });
    // The schema strips what it does not know: the same result through it.
    expect(decodeRunJobData({ input: '{"q":[1,2]}', unknown: 1 }, within(100))).toStrictEqual(alone);
    expect(() => decodeRunJobData({ input: '"long text"' }, within(4))).toThrow(PayloadTooLargeError);
    expect(() => decodeRunJobData({ input: '{nope' }, within(100))).toThrow(InvalidRunInputError);
    expect(() => decodeRunJobData({ input: 1 }, within(100))).toThrow('`input`');
    expect(() => decodeRunJobData(Object.assign([], { input: '1' }), within(100))).toThrow(
      InvalidRunInputError,
    );
  });

  it('rejects a child placement without its parent', () => {
    expect(() => decodeRunJobData({ input: '1', child: { callPath: 'x', depth: 1 } }, within(100))).toThrow(
      InvalidRunInputError,
    );
  });

  it('names the field that is wrong, down to a nested one', () => {
    expect(() => decodeRunJobData({ input: '1', conversationId: '' }, within(100))).toThrow(
      '`conversationId`',
    );
    expect(() => decodeRunJobData({ input: '1', child: { callPath: 'x', depth: 1 } }, within(100))).toThrow(
      '`child.parentRunId`',
    );
  });

  it("round-trips a child run's inherited usage budget and names a bad limit or price", () => {
    const budget = {
      limits: [{ scope: '0123456789abcdef', setBy: 'root/agent:lead:0', maxTokens: 5000 }],
      prices: {
        'openai/gpt-4.1': {
          inputMicroUsdPerMillionTokens: 2_000_000,
          outputMicroUsdPerMillionTokens: 8_000_000,
        },
      },
    };
    const data = encodeRunJobData(1, { budget });
    expect(decodeRunJobData(JSON.parse(JSON.stringify(data)), within(10_000)).budget).toEqual(budget);
    expect(encodeRunJobData(1, { budget: {} })).not.toHaveProperty('budget');
    const limit = { scope: '0123456789abcdef', setBy: 'root/agent:lead:0' };
    expect(() =>
      decodeRunJobData({ input: '1', budget: { limits: [{ ...limit, maxTokens: 0 }] } }, within(1000)),
    ).toThrow(/budget\.limits\.0\.maxTokens/);
    expect(() =>
      decodeRunJobData({ input: '1', budget: { limits: [{ ...limit, scope: 'r:x' }] } }, within(1000)),
    ).toThrow(/budget\.limits\.0\.scope/);
    expect(() =>
      decodeRunJobData(
        {
          input: '1',
          budget: { prices: { m: { inputMicroUsdPerMillionTokens: -1, outputMicroUsdPerMillionTokens: 1 } } },
        },
        within(1000),
      ),
    ).toThrow(InvalidRunInputError);
  });

  it('sends undefined input as null', () => {
    expect(decodeRunJobData(encodeRunJobData(undefined, {}), within(100)).input).toBeNull();
  });

  it('measures the payload in UTF-8 bytes before parsing it', () => {
    const data = { input: JSON.stringify('é'.repeat(40)) };
    expect(() => decodeRunJobData(data, within(60))).toThrowError(
      expect.objectContaining({ name: 'PayloadTooLargeError', bytes: 82 }),
    );
    expect(() => decodeRunJobData({ input: `{${'x'.repeat(100)}` }, within(10))).toThrow(
      PayloadTooLargeError,
    );
  });

  it('refuses input, scope and resource descriptors nested past maxDepth, naming each', () => {
    const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
    expect(decodeRunJobData({ input: deep(64) }, within(100_000)).input).toBeDefined();
    expect(() => decodeRunJobData({ input: deep(5000) }, within(100_000))).toThrowError(
      expect.objectContaining({ name: 'ValueTooDeepError', source: 'the run input', maxDepth: 64 }),
    );
    let layer: unknown = 1;
    for (let level = 0; level < 100; level++) layer = { a: layer };
    expect(() => decodeRunJobData({ input: '1', scope: [layer] }, within(100_000))).toThrowError(
      expect.objectContaining({ name: 'ValueTooDeepError', source: 'the run scope' }),
    );
    expect(() =>
      decodeRunJobData({ input: '1', scope: [{ big: 'x'.repeat(200) }] }, within(100)),
    ).toThrowError(expect.objectContaining({ name: 'PayloadTooLargeError', source: 'the run scope' }));
  });

  it('bounds every id and text field', () => {
    const child = { callPath: 'root/agent:c:0', depth: 1, parentRunId: 'p', rootRunId: 'r' };
    expect(() => decodeRunJobData({ input: '1', conversationId: 'c'.repeat(201) }, within(100))).toThrow(
      '`conversationId` is invalid: expected 1 to 200',
    );
    expect(() => decodeRunJobData({ input: '1', conversationId: 'a b' }, within(100))).toThrow(
      InvalidRunInputError,
    );
    expect(() =>
      decodeRunJobData({ input: '1', child: { ...child, parentRunId: 'p'.repeat(5_000_000) } }, within(100)),
    ).toThrow('`child.parentRunId` is invalid');
    expect(() =>
      decodeRunJobData({ input: '1', child: { ...child, callPath: 'x'.repeat(2001) } }, within(100)),
    ).toThrow('`child.callPath` must be a string of 1 to 2000 characters');
    // A child run's id is its root's id plus 17 characters.
    expect(
      decodeRunJobData(
        { input: '1', child: { ...child, parentRunId: `${'r'.repeat(200)}.0123456789abcdef` } },
        within(100),
      ).child?.parentRunId,
    ).toHaveLength(217);
  });

  it.each([
    ['null data', null],
    ['missing input', { conversationId: 'c' }],
    ['input that is not JSON', { input: 'nope' }],
    ['an empty conversation id', { input: '1', conversationId: '' }],
    ['scope that is not a list of objects', { input: '1', scope: ['x'] }],
  ])('rejects %s with InvalidRunInputError', (_what, data) => {
    expect(() => decodeRunJobData(data, within(100))).toThrow(InvalidRunInputError);
  });
});
