/**
 * Connections for blocking reads (BLPOP): a blocked connection can serve nobody else, so each
 * concurrent wait takes its own. Idle connections are kept for reuse, up to `maxIdle`.
 */
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { openRedis } from '../config/open-redis.js';

/** A small pool of duplicates of one connection. */
export class BlockingConnectionPool {
  readonly #source: Redis;
  readonly #maxIdle: number;
  readonly #idle: Redis[] = [];
  readonly #all = new Set<Redis>();
  readonly #logger: Logger | undefined;
  #closed = false;

  /**
   * @param maxIdle connections kept open between waits. @default 4
   * @param logger where the pool's connections report outages (at debug: they come and go). @default none
   */
  constructor(source: Redis, maxIdle = 4, logger?: Logger) {
    this.#source = source;
    this.#maxIdle = maxIdle;
    this.#logger = logger;
  }

  /**
   * Runs `use` on a connection of its own.
   * @throws Error after {@link close}
   */
  async with<T>(use: (connection: Redis) => Promise<T>): Promise<T> {
    if (this.#closed) throw new Error('The blocking connection pool is closed.');
    const connection = this.#idle.pop() ?? this.#open();
    try {
      return await use(connection);
    } finally {
      if (!this.#closed && this.#idle.length < this.#maxIdle && connection.status === 'ready')
        this.#idle.push(connection);
      else this.#drop(connection);
    }
  }

  /** Closes every connection (waits in progress fail). */
  async close(): Promise<void> {
    this.#closed = true;
    this.#idle.length = 0;
    for (const connection of this.#all) this.#drop(connection);
  }

  #open(): Redis {
    const connection = openRedis(this.#source, {
      role: 'resource-replies',
      logger: this.#logger,
      perCall: true,
    });
    this.#all.add(connection);
    return connection;
  }

  #drop(connection: Redis): void {
    this.#all.delete(connection);
    connection.disconnect();
  }
}
