import type { ModelDelta, ModelResponse } from '@flotilla/runtime';
import { ModelCallError } from '@flotilla/runtime';
import { describe, expect, it } from 'vitest';
import { generateWithRetries } from './generate-with-retries.js';
import { resolveRetryPolicy } from './retry-policy.js';

const policy = resolveRetryPolicy({ maxRetries: 2, retryBaseDelayMs: 1 });
const overloaded = new ModelCallError({ provider: 'test', modelId: 'm', message: 'busy', status: 503 });
const answer: ModelResponse = {
  message: { role: 'assistant', content: 'done' },
  usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 },
  finishReason: { unified: 'stop', raw: 'stop' },
};

/** A stream that reports `deltasBeforeFailure` deltas and fails, on its first `failures` attempts. */
async function streamFailing(failures: number, deltasBeforeFailure: number) {
  const deltas: ModelDelta[] = [];
  let calls = 0;
  const result = await generateWithRetries(
    { messages: [{ role: 'user', content: 'hi' }], onDelta: (delta) => deltas.push(delta) },
    policy,
    {
      call: async (onDelta) => {
        calls++;
        if (calls > failures) return answer;
        for (let index = 0; index < deltasBeforeFailure; index++)
          onDelta?.({ type: 'text-delta', text: 'x' });
        throw overloaded;
      },
      toError: (error) => error,
    },
  ).catch((error: unknown) => error);
  return { calls, deltas, result };
}

describe('generateWithRetries', () => {
  it('retries a stream that failed before any delta reached the caller', async () => {
    const { calls, result } = await streamFailing(1, 0);
    expect(calls).toBe(2);
    expect(result).toEqual(answer);
  });

  it('does not retry a stream once a delta reached the caller, so no text arrives twice', async () => {
    const { calls, deltas, result } = await streamFailing(1, 1);
    expect(calls).toBe(1);
    expect(deltas).toHaveLength(1);
    expect(result).toBe(overloaded);
  });

  it('gives the call no onDelta when the request has none', async () => {
    let given: unknown = 'unset';
    await generateWithRetries({ messages: [] }, policy, {
      call: async (onDelta) => {
        given = onDelta;
        return answer;
      },
      toError: (error) => error,
    });
    expect(given).toBeUndefined();
  });
});
