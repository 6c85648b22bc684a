import { Redis } from 'ioredis';

/**
 * The Redis connections one bench hands to BullMQ. BullMQ leaves a connection it was given open
 * after its own `close()`, so the bench keeps every one here and closes them all at the end.
 */
export class BenchConnections {
  /** @type {Redis[]} */
  #connections = [];
  /** @type {string} */
  #url;

  /** @param {string} url the Redis URL every connection opens */
  constructor(url) {
    this.#url = url;
  }

  /** Opens a connection BullMQ can block on (`maxRetriesPerRequest: null`) and keeps it for `close()`. */
  connect() {
    const connection = new Redis(this.#url, { maxRetriesPerRequest: null });
    this.#connections.push(connection);
    return connection;
  }

  /**
   * Deletes every key matching the SCAN `pattern` (e.g. `${prefix}:*`), so a bench leaves nothing behind.
   * @param {string} pattern
   */
  async deleteKeys(pattern) {
    const redis = this.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.unlink(...keys);
    } while (cursor !== '0');
  }

  /** Closes every connection opened here; one that cannot quit (already closed) is disconnected. */
  async close() {
    await Promise.all(
      this.#connections.map((connection) => connection.quit().catch(() => connection.disconnect())),
    );
  }
}
