/**
 * Client calls bounded by a request timeout: a call waits for Redis at most `timeoutMs` in
 * total (connecting, reconnecting, or a server that does not answer) and then fails with
 * {@link RedisUnavailableError}, instead of waiting for the whole outage. Only Redis round
 * trips are bounded, never the run a call waits for.
 */
import type { Redis } from 'ioredis';
import { RedisAuthError, RedisUnavailableError } from '../errors/redis-errors.js';
import { isAuthError, isConnectionError, redisAddress } from './watch-connection.js';

/** A connection and the longest a call on it waits for Redis. */
export interface RequestBound {
  readonly redis: Redis;
  readonly timeoutMs: number;
}

/**
 * Resolves when `redis` is ready (at once when it is).
 * @throws RedisUnavailableError when it is not ready by `deadline` (epoch ms)
 * @throws Error when the connection was closed
 */
export async function untilRedisReady(bound: RequestBound, deadline: number): Promise<void> {
  const { redis } = bound;
  if (redis.status === 'ready') return;
  if (redis.status === 'end') throw new Error('The Redis connection is closed; this client was closed.');
  if (redis.status === 'wait') redis.connect().catch(() => undefined);
  let onReady: (() => void) | undefined;
  let onError: ((error: Error) => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      onReady = resolve;
      // Refused credentials or TLS: reconnecting will not help, so fail now, not at the deadline.
      onError = (error) => {
        if (isAuthError(error)) reject(new RedisAuthError(redisAddress(redis), error));
      };
      redis.once('ready', onReady);
      redis.on('error', onError);
      timer = setTimeout(() => reject(unavailable(bound)), Math.max(0, deadline - Date.now()));
    });
  } finally {
    clearTimeout(timer);
    if (onReady) redis.off('ready', onReady);
    if (onError) redis.off('error', onError);
  }
}

/**
 * Runs `operation` (Redis round trips only) within `bound.timeoutMs`: waits until the
 * connection is ready, runs it, and runs it again after a connection error while time is left,
 * so `operation` must be safe to repeat (every client call is).
 * @throws RedisUnavailableError when Redis does not answer in time
 */
export async function boundedRequest<T>(bound: RequestBound, operation: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + bound.timeoutMs;
  for (;;) {
    // Ready is the common case: no promise made for it.
    if (bound.redis.status !== 'ready') await untilRedisReady(bound, deadline);
    try {
      return await beforeDeadline(bound, deadline, operation());
    } catch (error) {
      if (RedisUnavailableError.is(error)) throw error;
      if (!isConnectionError(error)) throw error;
      if (Date.now() >= deadline) throw unavailable(bound, error);
    }
  }
}

/**
 * `promise`, or {@link RedisUnavailableError} when it has not settled by `deadline` (a paused
 * or unreachable server that never closes the socket).
 */
export function beforeDeadline<T>(bound: RequestBound, deadline: number, promise: Promise<T>): Promise<T> {
  // One promise and one timer per call (every client round trip makes one): no race of two.
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(unavailable(bound)), Math.max(0, deadline - Date.now()));
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** The error for `bound`'s connection. */
export function unavailable(bound: RequestBound, cause?: unknown): RedisUnavailableError {
  return new RedisUnavailableError(redisAddress(bound.redis), bound.timeoutMs, cause);
}
