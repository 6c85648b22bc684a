import { Redis, type RedisOptions } from 'ioredis';
import { type ConnectionWatchOptions, watchConnection } from './watch-connection.js';

/** A Redis URL, or a connection to copy settings from (Flotilla never closes yours). */
export type RedisConnectionOption = string | Redis;

/** Options of {@link openRedis}: the connection's role and logger, and ioredis options over the defaults. */
export interface OpenRedisOptions extends ConnectionWatchOptions {
  redis?: RedisOptions;
}

/**
 * Opens a new connection owned by the caller: from a URL, or a duplicate of a given one, watched
 * by {@link watchConnection} (its outages are logged once, never printed by ioredis).
 * `maxRetriesPerRequest: null` by default, as BullMQ requires for workers and blocking reads:
 * commands wait through an outage and run once Redis is back.
 */
export function openRedis(connection: RedisConnectionOption, options: OpenRedisOptions): Redis {
  const settings: RedisOptions = { maxRetriesPerRequest: null, ...options.redis };
  const redis =
    typeof connection === 'string' ? new Redis(connection, settings) : connection.duplicate(settings);
  watchConnection(redis, options);
  return redis;
}
