import { describe, expect, it } from 'vitest';
import { hasAttemptsLeft, retryDelayMs } from './root-run-retry.js';

describe('root run retry policy', () => {
  it('allows attempts until the failures reach the policy attempts', () => {
    expect(hasAttemptsLeft({ attempts: 3 }, 1)).toBe(true);
    expect(hasAttemptsLeft({ attempts: 3 }, 2)).toBe(true);
    expect(hasAttemptsLeft({ attempts: 3 }, 3)).toBe(false);
    expect(hasAttemptsLeft(undefined, 1)).toBe(false);
  });

  it('waits the fixed delay, or doubles it per failure when exponential, or not at all', () => {
    expect(retryDelayMs({ attempts: 3, backoff: { type: 'fixed', delayMs: 200 } }, 2)).toBe(200);
    const exponential = { attempts: 4, backoff: { type: 'exponential', delayMs: 100 } } as const;
    expect([1, 2, 3].map((failures) => retryDelayMs(exponential, failures))).toEqual([100, 200, 400]);
    expect(retryDelayMs({ attempts: 2 }, 1)).toBe(0);
  });
});
