import type { Redis } from 'ioredis';
import { waitUntil } from './wait-until.js';

/** Options of {@link waitForKey}. */
export interface WaitForKeyOptions {
  /**
   * How long to wait before failing with a message naming the key, so a fixture that never
   * reaches its point fails the test with that message rather than the test's own timeout.
   * @default 30000
   */
  timeoutMs?: number;
}

/**
 * Reads `key` every 25 ms until it holds a value, and returns that value: how a test waits for a
 * worker process to reach a point (a fixture writes the key there).
 * @throws Error naming the key when it is still unset after `timeoutMs`
 */
export function waitForKey(redis: Redis, key: string, options: WaitForKeyOptions = {}): Promise<string> {
  return waitUntil(async () => (await redis.get(key)) ?? undefined, {
    what: `key "${key}"`,
    ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
    failure: (timeoutMs) =>
      `waitForKey: "${key}" was not set within ${timeoutMs} ms. The fixture that writes it never ` +
      'reached that point: check that the worker process started, uses the same prefix, and got the run.',
  });
}
