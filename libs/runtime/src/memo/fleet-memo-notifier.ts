import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { openRedis } from '../config/open-redis.js';

/**
 * Wakes processes waiting for a fleet memo entry. One subscriber connection per memo instance
 * (a duplicate of the command connection, created on first use) serves every waiter of that
 * instance; each channel is subscribed while at least one local waiter needs it.
 */
export class FleetMemoNotifier {
  readonly #connection: Redis;
  readonly #logger: Logger | undefined;
  #subscriber: Redis | undefined;
  readonly #waiters = new Map<string, Set<() => void>>();

  constructor(connection: Redis, logger?: Logger) {
    this.#connection = connection;
    this.#logger = logger;
  }

  /**
   * Subscribes to `channel` and returns once the subscription is active, so a notification
   * published after this returns is never missed.
   *
   * @returns `wait(timeoutMs)` that resolves on the next notification or after the timeout,
   * and `stop()` that drops the subscription when this was its last waiter.
   */
  async listen(channel: string): Promise<{ wait(timeoutMs: number): Promise<void>; stop(): Promise<void> }> {
    const subscriber = this.#ensureSubscriber();
    // A notification that lands while nobody waits (e.g. during the caller's re-check) is
    // remembered, so the next wait returns at once instead of sleeping a whole timeout.
    let notified = false;
    let wake: (() => void) | undefined;
    const waiter = () => {
      notified = true;
      wake?.();
    };
    let waiters = this.#waiters.get(channel);
    if (!waiters) {
      waiters = new Set();
      this.#waiters.set(channel, waiters);
    }
    waiters.add(waiter);
    await subscriber.subscribe(channel);
    return {
      wait: (timeoutMs) =>
        new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            notified = false;
            wake = undefined;
            resolve();
          };
          const timer = setTimeout(done, timeoutMs);
          if (notified) done();
          else wake = done;
        }),
      stop: async () => {
        waiters.delete(waiter);
        if (waiters.size > 0) return;
        this.#waiters.delete(channel);
        await subscriber.unsubscribe(channel).catch(() => undefined);
      },
    };
  }

  /** Announces on `channel` that the entry is settled (computed or given up). */
  async notify(channel: string): Promise<void> {
    await this.#connection.publish(channel, '1');
  }

  /** Closes the subscriber connection, if one was opened. */
  async close(): Promise<void> {
    const subscriber = this.#subscriber;
    this.#subscriber = undefined;
    if (subscriber) await subscriber.quit().catch(() => undefined);
  }

  #ensureSubscriber(): Redis {
    if (this.#subscriber) return this.#subscriber;
    const subscriber = openRedis(this.#connection, { role: 'fleet-memo-subscriber', logger: this.#logger });
    subscriber.on('message', (channel: string) => {
      for (const waiter of this.#waiters.get(channel) ?? []) waiter();
    });
    this.#subscriber = subscriber;
    return subscriber;
  }
}
