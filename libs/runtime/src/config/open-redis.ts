import { readFileSync } from 'node:fs';
import { Redis, type RedisOptions } from 'ioredis';
import { InvalidConfigError } from './invalid-config-error.js';
import { type ConnectionWatchOptions, watchConnection } from './watch-connection.js';

/** A Redis URL, or a connection to copy settings from (Flotilla never closes yours). */
export type RedisConnectionOption = string | Redis;

/** Options of {@link openRedis}: the connection's role and logger, and ioredis options over the defaults. */
export interface OpenRedisOptions extends ConnectionWatchOptions {
  redis?: RedisOptions;
  /** For a `rediss://` URL: a PEM file of the CA(s) to trust (`FLOTILLA_REDIS_TLS_CA_FILE`). @default Node's CAs */
  tlsCaFile?: string | undefined;
}

/**
 * The ioredis options a URL needs beyond itself: for `rediss://` with `caFile`, TLS that trusts
 * that CA (ioredis turns TLS on for `rediss://` by itself, with Node's CAs).
 * @throws InvalidConfigError naming FLOTILLA_REDIS_TLS_CA_FILE when the file cannot be read
 */
export function redisTlsOptions(url: string, caFile: string | undefined): RedisOptions {
  if (caFile === undefined || !url.startsWith('rediss:')) return {};
  try {
    return { tls: { ca: readFileSync(caFile) } };
  } catch (error) {
    throw new InvalidConfigError(
      'FLOTILLA_REDIS_TLS_CA_FILE',
      caFile,
      `a readable PEM file of the CA that signed the Redis server's certificate (${(error as Error).message})`,
    );
  }
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
    typeof connection === 'string'
      ? new Redis(connection, { ...redisTlsOptions(connection, options.tlsCaFile), ...settings })
      : connection.duplicate(settings);
  watchConnection(redis, options);
  return redis;
}
