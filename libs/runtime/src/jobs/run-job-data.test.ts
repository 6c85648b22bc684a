import { describe, expect, it } from 'vitest';
import { InvalidRunInputError, PayloadTooLargeError } from './job-data-errors.js';
import { decodeRunJobData, encodeRunJobData } from './run-job-data.js';

describe('run job data', () => {
  it('round-trips input, conversation id and scope', () => {
    const data = encodeRunJobData({ q: 'é' }, { conversationId: 'c', scope: [{ tenant: 't' }] });
    expect(decodeRunJobData(JSON.parse(JSON.stringify(data)), 100)).toEqual({
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
    expect(decodeRunJobData(JSON.parse(JSON.stringify(data)), 100)).toMatchObject({ input: { n: 1 }, child });
  });

  it('rejects a child placement without its parent', () => {
    expect(() => decodeRunJobData({ input: '1', child: { callPath: 'x', depth: 1 } }, 100)).toThrow(
      InvalidRunInputError,
    );
  });

  it('names the field that is wrong, down to a nested one', () => {
    expect(() => decodeRunJobData({ input: '1', conversationId: '' }, 100)).toThrow('`conversationId`');
    expect(() => decodeRunJobData({ input: '1', child: { callPath: 'x', depth: 1 } }, 100)).toThrow(
      '`child.parentRunId`',
    );
  });

  it('sends undefined input as null', () => {
    expect(decodeRunJobData(encodeRunJobData(undefined, {}), 100).input).toBeNull();
  });

  it('measures the payload in UTF-8 bytes before parsing it', () => {
    const data = { input: JSON.stringify('é'.repeat(40)) };
    expect(() => decodeRunJobData(data, 60)).toThrowError(
      expect.objectContaining({ name: 'PayloadTooLargeError', bytes: 82 }),
    );
    expect(() => decodeRunJobData({ input: `{${'x'.repeat(100)}` }, 10)).toThrow(PayloadTooLargeError);
  });

  it.each([
    ['null data', null],
    ['missing input', { conversationId: 'c' }],
    ['input that is not JSON', { input: 'nope' }],
    ['an empty conversation id', { input: '1', conversationId: '' }],
    ['scope that is not a list of objects', { input: '1', scope: ['x'] }],
  ])('rejects %s with InvalidRunInputError', (_what, data) => {
    expect(() => decodeRunJobData(data, 100)).toThrow(InvalidRunInputError);
  });
});
