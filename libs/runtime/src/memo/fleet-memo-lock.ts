import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/*
 * KEYS[1] lock key; ARGV[1] token. Deletes the lock only when this process still holds it,
 * so a holder whose lock expired never frees a lock someone else took since.
 * Returns 1 when deleted, 0 otherwise.
 */
const RELEASE_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/*
 * KEYS[1] lock key; ARGV[1] token, ARGV[2] new lifetime in ms. Extends the lock only when this
 * process still holds it. Returns 1 when extended, 0 when the lock was lost.
 */
const EXTEND_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;

/**
 * A held single-flight lock. While held it renews itself every third of its lifetime, so a
 * long computation keeps it, while a crashed holder stops renewing and the lock expires after
 * at most `ttlMs`.
 */
export interface FleetMemoLockLease {
  /** Stops renewing and deletes the lock if this process still holds it. */
  release(): Promise<void>;
}

/**
 * Tries once to take the lock at `key` (SET NX PX).
 *
 * @returns the lease, or `undefined` when another process holds the lock.
 */
export async function tryAcquireFleetMemoLock(
  connection: Redis,
  key: string,
  ttlMs: number,
): Promise<FleetMemoLockLease | undefined> {
  const token = randomUUID();
  const acquired = await connection.set(key, token, 'PX', ttlMs, 'NX');
  if (acquired !== 'OK') return undefined;
  const renewal = setInterval(
    () => {
      // A failed renewal only risks a second computation, never a wrong value: ignore it.
      connection.eval(EXTEND_SCRIPT, 1, key, token, ttlMs).catch(() => undefined);
    },
    Math.max(1, Math.floor(ttlMs / 3)),
  );
  renewal.unref();
  return {
    release: async () => {
      clearInterval(renewal);
      await connection.eval(RELEASE_SCRIPT, 1, key, token);
    },
  };
}
