import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { submissionHashOf } from './submission-hash.js';
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
