import { describe, expect, it } from 'vitest';
import { InvalidSubmitRequestError } from './invalid-submit-request-error.js';
import { parseSubmitRequest } from './submit-request.js';

function rejection(value: unknown): InvalidSubmitRequestError {
  try {
    parseSubmitRequest(value);
  } catch (error) {
    if (InvalidSubmitRequestError.is(error)) return error;
    throw error;
  }
  throw new Error('expected the submission to be rejected');
}

describe('parseSubmitRequest', () => {
  it('accepts a full submission and sends a missing input as null', () => {
    expect(
      parseSubmitRequest({ agentId: 'research', runId: 'r-1', conversationId: 'c-1', scope: [{ t: 1 }] }),
    ).toEqual({ agentId: 'research', input: null, runId: 'r-1', conversationId: 'c-1', scope: [{ t: 1 }] });
  });

  it.each([
    ['a missing agentId', { input: {} }, 'agentId', 'is required'],
    ['an agentId with a space', { agentId: 'a b' }, 'agentId', 'is invalid'],
    ['a runId of digits only', { agentId: 'a', runId: '123' }, 'runId', 'only digits'],
    [
      'a conversationId with a brace',
      { agentId: 'a', conversationId: '{c}' },
      'conversationId',
      'is invalid',
    ],
    ['a scope layer that is not an object', { agentId: 'a', scope: [[1]] }, 'scope.0', 'must be an object'],
    ['a timeoutMs of 0', { agentId: 'a', timeoutMs: 0 }, 'timeoutMs', 'whole number of milliseconds'],
    ['a fractional timeoutMs', { agentId: 'a', timeoutMs: 1.5 }, 'timeoutMs', 'whole number of milliseconds'],
    ['a body that is not an object', [], '', 'must be an object'],
  ])('rejects %s, naming the field', (_what, value, field, problem) => {
    const error = rejection(value);
    expect(error.field).toBe(field);
    expect(error.message).toContain(problem);
    if (field !== '') expect(error.message).toContain(`\`${field}\``);
  });

  it('refuses input or scope nested past the limit, or too large, before anything is written', () => {
    let deep: unknown = 1;
    for (let level = 0; level < 5000; level++) deep = [deep];
    const limits = { maxDepth: 64, maxBytes: 1000 };
    expect(() => parseSubmitRequest({ agentId: 'a', input: deep }, limits)).toThrowError(
      expect.objectContaining({ name: 'ValueTooDeepError', source: 'the run input', maxDepth: 64 }),
    );
    expect(() => parseSubmitRequest({ agentId: 'a', scope: [{ deep }] })).toThrowError(
      expect.objectContaining({ name: 'ValueTooDeepError', source: 'the run scope', maxDepth: 128 }),
    );
    expect(() => parseSubmitRequest({ agentId: 'a', input: 'x'.repeat(1000) }, limits)).toThrowError(
      expect.objectContaining({ name: 'PayloadTooLargeError', maxBytes: 1000 }),
    );
    // As the job will carry it: a Date is its text.
    expect(parseSubmitRequest({ agentId: 'a', input: { when: new Date(0) } }, limits).input).toBeDefined();
  });
});
