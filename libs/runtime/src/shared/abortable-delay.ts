import { setLongTimer } from './long-timer.js';

/**
 * Waits `ms` milliseconds, rejecting with the signal's reason as soon as `signal` aborts, so no
 * wait (a mock model's latency, a model adapter's retry backoff) outlives a cancelled run.
 * Resolves at once when `ms <= 0`.
 *
 * @throws the signal's reason, at once when `signal` is already aborted.
 */
export function abortableDelay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  signal?.throwIfAborted();
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      timer.clear();
      reject(signal?.reason);
    };
    const timer = setLongTimer(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
