import type { Redis } from 'ioredis';

/**
 * Whether any of `keys` exists, for keys under different hash tags (e.g. the cancel flags of a
 * run, its parent and its root): one EXISTS on one Redis; on a Redis Cluster one EXISTS per key,
 * sent together, since a multi-key command must stay in one slot there.
 */
export async function anyKeyExists(redis: Redis, keys: readonly string[]): Promise<boolean> {
  if (keys.length === 0) return false;
  if (!redis.isCluster) return (await redis.exists(...keys)) > 0;
  const counts = await Promise.all(keys.map((key) => redis.exists(key)));
  return counts.some((count) => count > 0);
}
