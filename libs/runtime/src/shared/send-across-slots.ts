import type { Redis } from 'ioredis';

/** One Redis command: its name and arguments, e.g. `['SET', key, '1', 'EX', 60]`. */
export type RedisCommand = [name: string, ...args: (string | number | Buffer)[]];

/**
 * Sends independent commands on keys of many hash tags (cancel flags of a tree, blob expiries)
 * in one round trip and resolves when all were answered: one pipeline on one Redis; on a Redis
 * Cluster the commands go together one by one, each to its slot's node (an ioredis pipeline
 * must stay on one node).
 * @throws the first command error (a pipeline's are read, not ignored)
 */
export async function sendAcrossSlots(redis: Redis, commands: readonly RedisCommand[]): Promise<void> {
  if (commands.length === 0) return;
  if (redis.isCluster) {
    await Promise.all(commands.map(([name, ...args]) => redis.call(name, ...args)));
    return;
  }
  // ioredis' array form names each command by its method: lower case.
  const pipelined = commands.map(([name, ...args]) => [name.toLowerCase(), ...args]);
  const replies = (await redis.pipeline(pipelined).exec()) ?? [];
  const failed = replies.find(([error]) => error);
  if (failed) throw failed[0];
}
