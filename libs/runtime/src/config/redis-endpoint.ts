/**
 * What `REDIS_URL` names: one Redis (`redis://`, `rediss://`, ioredis' own URL form) or a Redis
 * Cluster (`redis+cluster://`, `rediss+cluster://` for TLS), given by one or more seed nodes:
 * `redis+cluster://[user:password@]host:port[,host:port…]`. Seeds are only where the client
 * starts: it discovers every master from them (`CLUSTER SLOTS`), so one reachable seed is enough,
 * and listing every master survives a seed being down. A cluster has no databases: no `/db`.
 */

/** One seed node of a cluster. */
export interface ClusterSeed {
  host: string;
  port: number;
}

export type RedisEndpoint =
  | { kind: 'single'; url: string }
  | {
      kind: 'cluster';
      seeds: ClusterSeed[];
      username: string | undefined;
      password: string | undefined;
      tls: boolean;
    };

/** The URL schemes of a Redis Cluster. */
const CLUSTER_SCHEMES = ['redis+cluster:', 'rediss+cluster:'] as const;

/** At most this many seeds: a cluster of many masters needs only a few to be found. */
export const MAX_CLUSTER_SEEDS = 64;

/** What a Redis URL must look like, for messages. */
export const REDIS_URL_FORMS =
  'a redis:// or rediss:// URL, or redis+cluster://host:port[,host:port…] (rediss+cluster:// for TLS) for a Redis Cluster';

/** Thrown by {@link parseRedisEndpoint}; its message says what is wrong with the URL. */
export class InvalidRedisUrlError extends Error {
  override readonly name = 'InvalidRedisUrlError';
}

/** Whether `text` names a Redis Cluster (by its scheme; the rest is checked by {@link parseRedisEndpoint}). */
export function isClusterUrl(text: string): boolean {
  return CLUSTER_SCHEMES.some((scheme) => text.toLowerCase().startsWith(`${scheme}//`));
}

/**
 * Reads a Redis URL.
 * @throws InvalidRedisUrlError saying what is wrong (scheme, a seed's host or port, a `/db` on a cluster)
 */
export function parseRedisEndpoint(text: string): RedisEndpoint {
  if (!isClusterUrl(text)) {
    if (!URL.canParse(text)) throw new InvalidRedisUrlError(`"${redact(text)}" is not a URL`);
    const { protocol } = new URL(text);
    if (protocol !== 'redis:' && protocol !== 'rediss:')
      throw new InvalidRedisUrlError(`the scheme ${protocol} is not redis:, rediss: or redis+cluster:`);
    return { kind: 'single', url: text };
  }
  const tls = text.toLowerCase().startsWith('rediss+');
  const rest = text.slice(text.indexOf('//') + 2);
  const at = rest.lastIndexOf('@');
  const credentials = at === -1 ? undefined : rest.slice(0, at);
  const hosts = (at === -1 ? rest : rest.slice(at + 1)).replace(/\/$/, '');
  if (hosts.includes('/') || hosts.includes('?'))
    throw new InvalidRedisUrlError(
      'a Redis Cluster URL has no path or query (a cluster has one database, 0)',
    );
  const seeds = hosts.split(',').map(parseSeed);
  if (seeds.length > MAX_CLUSTER_SEEDS)
    throw new InvalidRedisUrlError(`${seeds.length} seed nodes: at most ${MAX_CLUSTER_SEEDS}`);
  const { username, password } = parseCredentials(credentials);
  return { kind: 'cluster', seeds, username, password, tls };
}

function parseSeed(address: string): ClusterSeed {
  const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(address.trim());
  const port = match ? Number(match[2]) : Number.NaN;
  if (!match || port < 1 || port > 65_535)
    throw new InvalidRedisUrlError(
      `the seed "${address}" is not host:port with a port from 1 to 65535 (seeds are separated by commas)`,
    );
  return { host: (match[1] as string).replace(/^\[|\]$/g, ''), port };
}

function parseCredentials(credentials: string | undefined): {
  username: string | undefined;
  password: string | undefined;
} {
  if (credentials === undefined || credentials === '') return { username: undefined, password: undefined };
  const colon = credentials.indexOf(':');
  const decode = (part: string) => (part === '' ? undefined : decodeURIComponent(part));
  if (colon === -1) return { username: decode(credentials), password: undefined };
  return { username: decode(credentials.slice(0, colon)), password: decode(credentials.slice(colon + 1)) };
}

/** `text` without its password, for messages. */
function redact(text: string): string {
  return text.replace(/\/\/([^@/]*):[^@/]*@/, '//$1:***@');
}
