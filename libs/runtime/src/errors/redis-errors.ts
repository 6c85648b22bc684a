import { errorGuard, FlotillaError } from '@flotilla/ir';

/**
 * Redis did not answer a client call within its request timeout (`requestTimeoutMs`,
 * `FLOTILLA_REQUEST_TIMEOUT_MS`): it is down, unreachable, or paused. Nothing waits for it any
 * longer; a call may or may not have reached Redis before it stopped answering, and every client
 * call can be repeated safely (a submit with the same `runId` returns the same run).
 */
export class RedisUnavailableError extends FlotillaError {
  static override readonly errorName = 'RedisUnavailableError';
  static override readonly is = errorGuard(this);
  /** `host:port` of the Redis that did not answer (never a password). */
  readonly address: string;
  readonly timeoutMs: number;

  constructor(address: string, timeoutMs: number, cause?: unknown) {
    super(
      `Redis at ${address} did not answer within ${timeoutMs} ms. Check that redis-server is running and ` +
        'reachable from this process (REDIS_URL, network, firewall), then retry the call; raise ' +
        'requestTimeoutMs (FLOTILLA_REQUEST_TIMEOUT_MS) if Redis is only slow.',
      cause === undefined ? undefined : { cause },
    );
    this.address = address;
    this.timeoutMs = timeoutMs;
  }
}

/**
 * Redis refused this process: its credentials are wrong or missing (`WRONGPASS`, `NOAUTH`: the
 * user or password in `REDIS_URL`), or the TLS handshake failed (the server's certificate could
 * not be verified: give its CA with `FLOTILLA_REDIS_TLS_CA_FILE`). Waiting would not help, so a
 * client call fails at once instead of after `requestTimeoutMs`.
 */
export class RedisAuthError extends FlotillaError {
  static override readonly errorName = 'RedisAuthError';
  static override readonly is = errorGuard(this);
  /** `host:port` of the Redis that refused (never a password). */
  readonly address: string;

  constructor(address: string, cause: Error) {
    super(
      `Redis at ${address} refused this process: ${cause.message}. Check the user and password in REDIS_URL ` +
        '(redis://user:password@host:port), and for rediss:// that the server certificate is signed by a CA this ' +
        'process trusts (FLOTILLA_REDIS_TLS_CA_FILE).',
      { cause },
    );
    this.address = address;
  }
}
