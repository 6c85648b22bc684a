/**
 * Every Redis connection the runtime opens, and every BullMQ object, gets an `error` listener
 * from here: without one ioredis prints `[ioredis] Unhandled error event` with a stack trace on
 * each reconnect attempt (dozens per outage), and BullMQ falls back to `console.error`. Instead
 * a connection logs through pino once per state change: `Redis connection lost` (warn, with
 * its role and the first error) and `Redis connection restored` (info).
 */
import type { Cluster, Redis } from 'ioredis';
import type { Logger } from 'pino';

/** What a watched connection is for (`commands`, `bullmq-worker`, `cancel-listener` …) and where it logs. */
export interface ConnectionWatchOptions {
  role: string;
  /** @default none: state changes are not logged, and ioredis stays quiet */
  logger?: Logger | undefined;
  /**
   * State changes at debug level only, outside the logger's shared report: for connections
   * opened per call (event readers), whose outage the long-lived connections of the same
   * process already report. @default false
   */
  perCall?: boolean;
}

/**
 * Logs `connection`'s outages. Connections that share a logger report together: `lost` when
 * the first of them fails (with its role), `restored` when the last of them is back, so a
 * process prints two lines per outage however many connections it holds. Errors that are not
 * about the connection are logged as they come.
 */
export function watchConnection(connection: Redis, options: ConnectionWatchOptions): void {
  const { role, logger } = options;
  const outages = logger && !options.perCall ? outagesOf(logger) : undefined;
  let down = false;
  let refused = false;
  connection.on('error', (error: Error) => {
    if (isAuthError(error)) {
      // Every reconnect is refused again: say it once per connection, not once per retry.
      if (!refused)
        logger?.error(
          { role, address: redisAddress(connection), reason: error.message },
          'Redis refused the connection (credentials or TLS)',
        );
      refused = true;
      return;
    }
    if (!isConnectionError(error)) {
      logger?.error({ role, err: error }, 'Redis error');
      return;
    }
    if (down) return;
    down = true;
    if (outages) outages.lost(connection, role, error.message);
    else logger?.debug({ role, reason: error.message }, 'Redis connection lost; reconnecting');
  });
  connection.on('ready', () => {
    refused = false;
    if (!down) return;
    down = false;
    if (outages) outages.restored(connection);
    else logger?.debug({ role }, 'Redis connection restored');
  });
  // A connection closed while down no longer holds the group's outage open.
  connection.on('end', () => outages?.forget(connection));
}

/** The connections of one logger that are down, and the two lines they print per outage. */
class Outages {
  readonly #logger: Logger;
  readonly #down = new Set<Redis>();

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  lost(connection: Redis, role: string, reason: string): void {
    const first = this.#down.size === 0;
    this.#down.add(connection);
    const fields = { role, address: redisAddress(connection), reason };
    if (first) this.#logger.warn(fields, 'Redis connection lost; reconnecting');
    else this.#logger.debug(fields, 'Redis connection lost; reconnecting');
  }

  restored(connection: Redis): void {
    if (!this.#down.delete(connection)) return;
    if (this.#down.size === 0)
      this.#logger.info({ address: redisAddress(connection) }, 'Redis connection restored');
  }

  forget(connection: Redis): void {
    this.#down.delete(connection);
  }
}

const outagesByLogger = new WeakMap<Logger, Outages>();

function outagesOf(logger: Logger): Outages {
  let outages = outagesByLogger.get(logger);
  if (!outages) {
    outages = new Outages(logger);
    outagesByLogger.set(logger, outages);
  }
  return outages;
}

/**
 * Listens to a BullMQ `Worker`, `Queue` or `QueueEvents`: its connection errors repeat what
 * the watched connections already reported (debug only); any other error is logged.
 */
export function watchBullmqErrors(
  emitter: { on(event: 'error', listener: (error: Error) => void): unknown },
  options: ConnectionWatchOptions,
): void {
  const { role, logger } = options;
  emitter.on('error', (error: Error) => {
    if (isConnectionError(error)) logger?.debug({ role, reason: error.message }, 'BullMQ connection error');
    else logger?.error({ role, err: error }, 'BullMQ error');
  });
}

const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/** The last line: a Redis Cluster not (yet, or no longer) reachable as a whole (ioredis `Cluster`). */
const CONNECTION_ERROR_MESSAGES =
  /Connection is closed|Stream isn't writeable|max retries per request|Command timed out|Socket closed unexpectedly|connect ETIMEDOUT|Cluster isn't ready|None of startup nodes is available|Failed to refresh slots cache|^CLUSTERDOWN/i;

/** Whether `error` says Redis could not be reached (as opposed to a command it refused). */
export function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== undefined && CONNECTION_ERROR_CODES.has(code)) return true;
  if (error.name === 'MaxRetriesPerRequestError') return true;
  return CONNECTION_ERROR_MESSAGES.test(error.message);
}

/** Redis replies that refuse the credentials, and TLS handshakes that fail to verify the server. */
const AUTH_ERROR_MESSAGES = /^(WRONGPASS|NOAUTH)|invalid password|invalid username-password/i;
const TLS_ERROR_CODES =
  /^(ERR_TLS_|ERR_SSL_|SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|UNABLE_TO_(VERIFY|GET)_|CERT_)/;

/**
 * Whether `error` says Redis refused this process (wrong credentials, or a TLS certificate that
 * does not verify): unlike an outage, reconnecting does not help.
 */
export function isAuthError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as NodeJS.ErrnoException).code;
  return AUTH_ERROR_MESSAGES.test(error.message) || (code !== undefined && TLS_ERROR_CODES.test(code));
}

/** `host:port` of a connection, for messages: never its password. */
export function redisAddress(connection: Redis): string {
  if (connection.isCluster) return clusterAddress(connection as unknown as Cluster);
  const { host, port, path } = connection.options;
  return path ? path : `${host ?? '127.0.0.1'}:${port ?? 6379}`;
}

/** A cluster's masters as `host:port,…` (once it knows them), else what it is. */
function clusterAddress(cluster: Cluster): string {
  const masters = cluster.nodes('master').map(({ options }) => `${options.host}:${options.port}`);
  return masters.length > 0 ? `cluster ${masters.join(',')}` : 'a Redis Cluster';
}
