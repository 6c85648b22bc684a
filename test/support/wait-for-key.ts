import type { Redis } from 'ioredis';

/**
 * Reads `key` every 25 ms until it holds a value, and returns that value: how a test waits for a
 * worker process to reach a point (a fixture writes the key there). Unbounded: the test's own
 * timeout ends a wait for a key that never comes.
 */
export async function waitForKey(redis: Redis, key: string): Promise<string> {
  for (;;) {
    const value = await redis.get(key);
    if (value !== null) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
