import type { Redis } from 'ioredis';

/** Options of {@link waitForKey}. */
export interface WaitForKeyOptions {
  /**
   * How long to wait before failing with a message naming the key, so a fixture that never
   * reaches its point fails the test with that message rather than the test's own timeout.
   * @default 30000
   */
  timeoutMs?: number;
}

/** How often {@link waitForKey} reads the key. */
const POLL_MS = 25;

/**
 * Reads `key` every 25 ms until it holds a value, and returns that value: how a test waits for a
 * worker process to reach a point (a fixture writes the key there).
 * @throws Error naming the key when it is still unset after `timeoutMs`
 */
export async function waitForKey(
  redis: Redis,
  key: string,
  options: WaitForKeyOptions = {},
): Promise<string> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await redis.get(key);
    if (value !== null) return value;
    if (Date.now() >= deadline)
      throw new Error(
        `waitForKey: "${key}" was not set within ${timeoutMs} ms. The fixture that writes it never ` +
          'reached that point: check that the worker process started, uses the same prefix, and got the run.',
      );
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
