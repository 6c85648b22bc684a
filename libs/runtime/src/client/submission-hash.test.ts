import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalSubmission, submissionHashOf, wholeSubmissionJson } from './submission-hash.js';
import { parseSubmitRequest } from './submit-request.js';

describe('submissionHashOf', () => {
  it('is the SHA-256 of the canonical submission without its run id: records written before stay resubmittable', () => {
    const request = parseSubmitRequest({
      runId: 'r-1',
      timeoutMs: 5,
      input: { b: [1, 'x'], a: null },
      conversationId: 'c',
      agentId: 'a',
    });
    const canonical = '{"agentId":"a","conversationId":"c","input":{"a":null,"b":[1,"x"]},"timeoutMs":5}';
    expect(submissionHashOf(request)).toBe(createHash('sha256').update(canonical).digest('hex'));
    expect(submissionHashOf({ ...request, runId: 'r-2' })).toBe(submissionHashOf(request));
  });
});

describe('canonicalSubmission', () => {
  const inputs: unknown[] = [
    null,
    undefined,
    {},
    [],
    'text',
    '',
    'lone \ud800 surrogate and é',
    0,
    -0,
    1.5e21,
    Number.NaN,
    true,
    { z: 1, a: { y: [3, { d: 1, c: 2 }], b: 'x' }, 10: 'ten', 2: 'two', m: undefined },
    [1, undefined, () => 1, { b: 1, a: 2 }],
    new Date(0),
    { toJSON: () => ({ b: 1, a: 2 }) },
    { nested: { when: new Date(86_400_000), skip: () => 1 } },
    [[], [1, 'a{b'], null, true],
    [{}, { b: 1, a: 2 }],
    '{"b":1,"a":2}',
    ['}{', '{}'],
  ];
  const submissions = inputs.flatMap((input) => [
    { agentId: 'agent-a', input },
    { agentId: 'b', input, runId: 'r-1', conversationId: 'c-1', onConflict: 'rollback' as const },
    { agentId: 'c', input, scope: [{ tenant: 'x', limits: { b: 2, a: 1 } }, {}], timeoutMs: 10, delayMs: 0 },
    { agentId: 'd', input, runAt: 1_700_000_000_000 },
  ]);

  it('writes byte for byte what the whole submission through JSON and portableJson writes', () => {
    for (const submission of submissions) {
      const request = parseSubmitRequest(submission);
      const whole = wholeSubmissionJson(request);
      expect(canonicalSubmission(request, undefined)).toBe(whole);
      // With the job data's input text, as `submit` passes it.
      expect(canonicalSubmission(request, JSON.stringify(request.input))).toBe(whole);
      expect(submissionHashOf(request, JSON.stringify(request.input))).toBe(
        createHash('sha256').update(whole).digest('hex'),
      );
    }
  });

  it('refuses what the whole-submission writer refuses, with its error', () => {
    const request = parseSubmitRequest({ agentId: 'a', input: JSON.parse('{"a":{"__proto__":1}}') });
    expect(() => wholeSubmissionJson(request)).toThrow(/\$\.input\.a\.__proto__/);
    expect(() => submissionHashOf(request)).toThrow(/\$\.input\.a\.__proto__/);
  });
});
