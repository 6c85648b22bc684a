import { ModelCallError } from '@flotilla/runtime';
import { describe, expect, it } from 'vitest';
import { callWithRetries } from './call-with-retries.js';
import { resolveRetryPolicy } from './retry-policy.js';

const policy = resolveRetryPolicy({ maxRetries: 2, retryBaseDelayMs: 1 });
const failure = (status: number) =>
  new ModelCallError({
    provider: 'test',
    modelId: 'm',
    message: `HTTP ${status}`,
    status,
    retryAfterSeconds: 0,
  });

async function countCalls(
  errors: unknown[],
  canRetry?: () => boolean,
): Promise<{ calls: number; result: unknown }> {
  let calls = 0;
  const result = await callWithRetries(
    async () => {
      const error = errors[calls++];
      if (error) throw error;
      return 'ok';
    },
    { policy, signal: undefined, toError: (error) => error, ...(canRetry ? { canRetry } : {}) },
  ).catch((error: unknown) => error);
  return { calls, result };
}

describe('callWithRetries', () => {
  it('retries retryable failures until one succeeds', async () => {
    expect(await countCalls([failure(429), failure(503)])).toEqual({ calls: 3, result: 'ok' });
  });

  it('stops after maxRetries and throws the last failure', async () => {
    const { calls, result } = await countCalls([failure(429), failure(429), failure(500), failure(429)]);
    expect(calls).toBe(3);
    expect(result).toMatchObject({ status: 500 });
  });

  it('never retries a non-retryable failure or a foreign error', async () => {
    expect((await countCalls([failure(400)])).calls).toBe(1);
    expect((await countCalls([new TypeError('bug')])).calls).toBe(1);
  });

  it('does not retry when the caller says it can no longer', async () => {
    expect((await countCalls([failure(503)], () => false)).calls).toBe(1);
  });

  it('stops waiting when aborted between attempts', async () => {
    const controller = new AbortController();
    const slow = resolveRetryPolicy({ maxRetries: 1, retryBaseDelayMs: 60_000, maxRetryDelayMs: 60_000 });
    const pending = callWithRetries(
      async () => {
        queueMicrotask(() => controller.abort(new Error('cancelled')));
        throw new ModelCallError({ provider: 'test', modelId: 'm', message: 'busy', status: 503 });
      },
      { policy: slow, signal: controller.signal, toError: (error) => error },
    );
    await expect(pending).rejects.toThrow('cancelled');
  });
});
