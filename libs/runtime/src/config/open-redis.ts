import { readFileSync } from 'node:fs';
import { Cluster, type ClusterOptions, Redis, type RedisOptions } from 'ioredis';
import { InvalidConfigError } from './invalid-config-error.js';
import { type ClusterSeed, parseRedisEndpoint } from './redis-endpoint.js';
import { type ConnectionWatchOptions, watchConnection } from './watch-connection.js';

/**
 * A Redis URL (`redis://`, `rediss://`, or a Redis Cluster's `redis+cluster://host:port,…`), or
 * a connection to copy settings from (Flotilla never closes yours; an ioredis `Cluster` passed
 * as a `Redis` works too, see {@link connectRedis}).
 */
export type RedisConnectionOption = string | Redis;

/** Options of {@link openRedis}: the connection's role and logger, and ioredis options over the defaults. */
export interface OpenRedisOptions extends ConnectionWatchOptions {
  redis?: RedisOptions;
  /** For a `rediss://` URL: a PEM file of the CA(s) to trust (`FLOTILLA_REDIS_TLS_CA_FILE`). @default Node's CAs */
  tlsCaFile?: string | undefined;
  /** For a Redis Cluster: options of the `Cluster` itself over the defaults (ignored on one Redis). */
  cluster?: Partial<ClusterOptions>;
}

/**
 * The ioredis options a URL needs beyond itself: for `rediss://` with `caFile`, TLS that trusts
 * that CA (ioredis turns TLS on for `rediss://` by itself, with Node's CAs).
 * @throws InvalidConfigError naming FLOTILLA_REDIS_TLS_CA_FILE when the file cannot be read
 */
export function redisTlsOptions(url: string, caFile: string | undefined): RedisOptions {
  if (caFile === undefined || !url.toLowerCase().startsWith('rediss')) return {};
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
 * `maxRetriesPerRequest: null` and no auto-pipelining by default (a duplicate does not inherit
 * it), `maxRetriesPerRequest` as BullMQ requires for workers and blocking reads:
 * commands wait through an outage and run once Redis is back.
 */
export function openRedis(connection: RedisConnectionOption, options: OpenRedisOptions): Redis {
  // A duplicate does not inherit auto-pipelining (the worker's command connection has it): the
  // blocking and subscriber connections opened from it must send each command on its own.
  const settings: RedisOptions = {
    maxRetriesPerRequest: null,
    enableAutoPipelining: false,
    ...options.redis,
  };
  const redis =
    typeof connection === 'string'
      ? connectRedis(
          connection,
          { ...redisTlsOptions(connection, options.tlsCaFile), ...settings },
          options.cluster,
        )
      : duplicateRedis(connection, settings, options.cluster);
  watchConnection(redis, options);
  return redis;
}

/**
 * A new connection to the Redis `url` names, with `settings`. For a Redis Cluster URL it is an
 * ioredis `Cluster`, typed as `Redis`: every command, script, pipeline and pub/sub call the
 * runtime makes is one a `Cluster` answers the same way (scripts and pipelines keep to one hash
 * tag, see `keys.ts`), so the runtime has one connection type; code that needs to tell them apart
 * reads `isCluster`.
 * @throws InvalidRedisUrlError when `url` is not a Redis URL (configured URLs were checked already)
 */
export function connectRedis(
  url: string,
  settings: RedisOptions = {},
  cluster: Partial<ClusterOptions> = {},
): Redis {
  const endpoint = parseRedisEndpoint(url);
  if (endpoint.kind === 'single') return new Redis(url, settings);
  const { username, password, tls } = endpoint;
  const nodeSettings: RedisOptions = {
    ...(username !== undefined && { username }),
    ...(password !== undefined && { password }),
    // rediss+cluster:// without a CA file still means TLS, with Node's CAs.
    ...(tls && settings.tls === undefined && { tls: {} }),
    ...settings,
  };
  return openCluster(endpoint.seeds, nodeSettings, cluster) as unknown as Redis;
}

/** `connection`'s settings with `settings` over them, as a new connection (a `Cluster` for a cluster). */
function duplicateRedis(
  connection: Redis,
  settings: RedisOptions,
  overrides: Partial<ClusterOptions> = {},
): Redis {
  if (!connection.isCluster) return connection.duplicate(settings);
  const cluster = connection as unknown as Cluster;
  const options = { ...clusterOptions({ ...cluster.options.redisOptions, ...settings }), ...overrides };
  // No seeds given: the copy starts from the same seeds as the original.
  return cluster.duplicate([], options) as unknown as Redis;
}

function openCluster(
  seeds: ClusterSeed[],
  settings: RedisOptions,
  overrides: Partial<ClusterOptions>,
): Cluster {
  return new Cluster(
    seeds.map(({ host, port }) => ({ host, port })),
    { ...clusterOptions(settings), ...overrides },
  );
}

/**
 * Cluster options whose node connections get `settings`; the few settings ioredis reads on the
 * cluster itself (offline queue, lazy connect, ready check, auto-pipelining, retries) are lifted to it.
 */
function clusterOptions(settings: RedisOptions): ClusterOptions {
  const { enableOfflineQueue, lazyConnect, enableReadyCheck, enableAutoPipelining, retryStrategy, ...node } =
    settings;
  return {
    redisOptions: node,
    ...(enableOfflineQueue !== undefined && { enableOfflineQueue }),
    ...(lazyConnect !== undefined && { lazyConnect }),
    ...(enableReadyCheck !== undefined && { enableReadyCheck }),
    ...(enableAutoPipelining !== undefined && { enableAutoPipelining }),
    ...(retryStrategy !== undefined && { clusterRetryStrategy: retryStrategy }),
  };
}
