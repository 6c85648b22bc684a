import { describe, expect, it } from 'vitest';
import { resolveRetryPolicy, retryDelayMs } from './retry-policy.js';

describe('resolveRetryPolicy', () => {
  it('defaults to two retries, 1 s base delay and a 30 s cap', () => {
    expect(resolveRetryPolicy({})).toEqual({
      maxRetries: 2,
      retryBaseDelayMs: 1000,
      maxRetryDelayMs: 30_000,
    });
  });

  it('rejects a negative option, naming it', () => {
    expect(() => resolveRetryPolicy({ maxRetries: -1 })).toThrow(/maxRetries/);
  });
});

describe('retryDelayMs', () => {
  const policy = resolveRetryPolicy({ retryBaseDelayMs: 100, maxRetryDelayMs: 5000 });

  it('waits what the provider asked for, but never past the cap', () => {
    expect(retryDelayMs(policy, 1, 2)).toBe(2000);
    expect(retryDelayMs(policy, 1, 3600)).toBe(5000);
  });

  it('backs off exponentially with jitter when the provider did not say', () => {
    const third = retryDelayMs(policy, 3, undefined);
    expect(third).toBeGreaterThanOrEqual(200);
    expect(third).toBeLessThanOrEqual(400);
  });
});
