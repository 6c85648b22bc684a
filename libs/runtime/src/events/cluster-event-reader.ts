/**
 * The shared event reader of a Redis Cluster (issue 15). One `XREAD BLOCK` cannot span the
 * slots run streams lie in, so here nothing blocks on Redis: every write of run events on a
 * cluster is followed by a tiny sharded notice (`SPUBLISH <events key>:notice ''`, same hash
 * tag, so it goes to the node that holds the stream), readers subscribe to the notices of the
 * streams they wait on (`SSUBSCRIBE`, on one connection per master: ioredis'
 * `shardedSubscribers`) and read a stream without BLOCK when its notice arrives. A process
 * holds its client's connections plus this reader's, however many runs it awaits.
 *
 * A notice can be lost (a subscriber reconnecting, a slot moving, a writer without notices):
 * every wait still ends by its deadline with a read of the stream, so an event is at worst one
 * block (`blockMs`, 1 s) late, never lost.
 */
import type { Redis } from 'ioredis';
import { eventNoticeChannel } from './event-notice.js';
import { ReadWait } from './read-wait.js';
import type { RunEventSource, StreamEntries } from './redis-run-event-stream.js';
import { readerClosedError, xreadEntries } from './shared-event-reader.js';

/** Entries read per XREAD (as the other readers). */
const COUNT = 100;

/** A process-wide reader of run events: one per client, a source per reader. */
export interface EventReader {
  /** A source for one reader (see `readRunEventStream`); closing it only drops its pending read. */
  source(): RunEventSource;
  /** Ends every pending read (with the closed client's error) and closes the reader's own connections. */
  close(): void;
}

/** Options of {@link ClusterEventReader}. */
export interface ClusterEventReaderOptions {
  /** The client's connection (a `Cluster`): reads without BLOCK go there. Not closed here. */
  control: Redis;
  /**
   * Opens the subscriber, on first use: a `Cluster` with `shardedSubscribers: true` (one
   * connection per master). Closed by {@link ClusterEventReader.close}.
   */
  openSubscriber: () => Redis;
}

/** The readers waiting on one channel, and its subscription. */
interface Channel {
  /** Settles once SSUBSCRIBE answered (either way: a failed one leaves readers to their deadline). */
  ready: Promise<void>;
  listeners: Set<() => void>;
}

export class ClusterEventReader implements EventReader {
  readonly #options: ClusterEventReaderOptions;
  readonly #channels = new Map<string, Channel>();
  /** Every source's wake-up, for a close or a subscriber that reconnected (notices may be lost). */
  readonly #sources = new Set<() => void>();
  #subscriber: Redis | undefined;
  #closed = false;

  constructor(options: ClusterEventReaderOptions) {
    this.#options = options;
  }

  get #subscribed(): Redis {
    if (!this.#subscriber) {
      const subscriber = this.#options.openSubscriber();
      subscriber.on('smessage', (channel: string) => {
        const entry = this.#channels.get(channel);
        if (entry) for (const listener of entry.listeners) listener();
      });
      // A subscriber (re)connected: notices sent while it was away are lost, so every reader
      // reads its stream once more instead of waiting for its deadline.
      for (const event of ['+subscriber', 'subscribersReady'])
        subscriber.on(event, () => {
          for (const wake of this.#sources) wake();
        });
      this.#subscriber = subscriber;
    }
    return this.#subscriber;
  }

  source(): RunEventSource {
    const control = this.#options.control;
    let channel: { name: string; entry: Channel } | undefined;
    // Whether the stream may hold entries not read yet: set by a notice, cleared before each read.
    let stale = true;
    let closed = false;
    let wait: ReadWait | undefined;
    const onNotice = () => {
      stale = true;
      wait?.wake();
    };
    const readNow = async (key: string, lastId: string) => {
      stale = false;
      const entries = xreadEntries(await control.xread('COUNT', COUNT, 'STREAMS', key, lastId));
      // A full page: more may follow at once.
      if (entries.length >= COUNT) stale = true;
      return entries;
    };
    const close = () => {
      closed = true;
      this.#sources.delete(onNotice);
      if (channel) this.#leave(channel.name, onNotice);
      channel = undefined;
      wait?.wake();
    };
    return {
      redis: control,
      read: async (key, lastId, blockMs) => {
        // The client was closed: its readers end now, not after a wait for a connection.
        if (this.#closed) throw readerClosedError();
        if (blockMs === undefined) return readNow(key, lastId);
        if (closed) return [];
        if (!channel) {
          this.#sources.add(onNotice);
          const name = eventNoticeChannel(key);
          channel = { name, entry: this.#join(name, onNotice) };
        }
        const current = new ReadWait(blockMs);
        wait = current;
        let woken = current.next();
        try {
          // Subscribed before the first read: a notice sent after that read is not missed.
          await Promise.race([channel.entry.ready, woken]);
          for (;;) {
            if (this.#closed) throw readerClosedError();
            if (closed) return [];
            if (stale || current.timedOut) {
              woken = current.next();
              const entries: StreamEntries = await readNow(key, lastId);
              if (entries.length > 0 || current.timedOut) return entries;
            }
            await woken;
            woken = current.next();
          }
        } finally {
          current.end();
          wait = undefined;
        }
      },
      close,
    };
  }

  close(): void {
    this.#closed = true;
    for (const wake of [...this.#sources]) wake();
    this.#channels.clear();
    this.#subscriber?.disconnect();
  }

  #join(name: string, listener: () => void): Channel {
    let entry = this.#channels.get(name);
    if (!entry) {
      const ready = this.#subscribed.ssubscribe(name).then(
        () => undefined,
        () => undefined,
      );
      entry = { ready, listeners: new Set() };
      this.#channels.set(name, entry);
    }
    entry.listeners.add(listener);
    return entry;
  }

  #leave(name: string, listener: () => void): void {
    const entry = this.#channels.get(name);
    if (!entry?.listeners.delete(listener) || entry.listeners.size > 0) return;
    this.#channels.delete(name);
    if (!this.#closed) this.#subscriber?.sunsubscribe(name).catch(() => undefined);
  }
}
