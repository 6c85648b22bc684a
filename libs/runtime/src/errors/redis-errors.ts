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
