import { Redis } from 'ioredis';

/**
 * Whether a Redis at `url` answers PING within `timeoutMs`. Never throws and never retries:
 * the demo only wants to know whether to run its Redis part.
 * @default timeoutMs 1500
 */
export async function redisAnswers(url: string, timeoutMs = 1500): Promise<boolean> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  redis.on('error', () => {}); // the failed connect is the answer, not an error to report
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}
