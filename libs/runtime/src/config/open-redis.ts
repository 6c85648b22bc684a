import { Redis } from 'ioredis';

/** A Redis URL, or a connection to copy settings from (Flotilla never closes yours). */
export type RedisConnectionOption = string | Redis;

/**
 * Opens a new connection owned by the caller: from a URL, or a duplicate of a given one.
 * `maxRetriesPerRequest: null` as BullMQ requires for workers and blocking reads.
 */
export function openRedis(connection: RedisConnectionOption): Redis {
  if (typeof connection !== 'string') return connection.duplicate({ maxRetriesPerRequest: null });
  return new Redis(connection, { maxRetriesPerRequest: null });
}
