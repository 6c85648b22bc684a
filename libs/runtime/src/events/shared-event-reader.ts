/**
 * One blocking Redis connection for every run-event reader of a process. Each reader blocking
 * on XREAD with a connection of its own (the default) costs one Redis client per open stream:
 * an API serving hundreds of SSE streams would take hundreds of clients from Redis'
 * `maxclients`, shared with the whole fleet. Here every waiting reader is one key of a single
 * `XREAD BLOCK … STREAMS k1 k2 …` and the reply is fanned out; a reader that joins while the
 * read is blocked gets in with the next read: the blocked one returns on its own, or within
 * {@link JOIN_UNBLOCK_DELAY_MS} it is ended by `CLIENT UNBLOCK` (from the non-blocking connection).
 */
import type { Redis } from 'ioredis';
import { compareStreamIds, type RunEventSource, type StreamEntries } from './redis-run-event-stream.js';

interface Waiter {
  key: string;
  /** The last id the reader has, or a later one whose entries it does not want (see `wanted`). */
  lastId: string;
  wanted: ((fields: string[]) => boolean) | undefined;
  resolve: (entries: StreamEntries) => void;
  reject: (error: unknown) => void;
}

/** Options of {@link SharedEventReader}. */
export interface SharedEventReaderOptions {
  /** Opens the blocking connection, on first use (it is closed by {@link SharedEventReader.close}). */
  openBlocking: () => Redis;
  /** A non-blocking connection for reads without BLOCK and `CLIENT UNBLOCK` (the caller's; not closed here). */
  control: Redis;
  /** Longest single shared XREAD BLOCK, in ms. @default 1000 */
  blockMs?: number;
}

/** Streams read per XREAD at most: more waiting keys take more round trips, each short. */
const MAX_KEYS_PER_READ = 1000;

/**
 * How long a reader the blocked read does not cover waits for that read to return on its own
 * before it is ended with `CLIENT UNBLOCK`. Under load the blocked read returns within a few ms
 * (another stream's events), and the reader joins the next one without the UNBLOCK and the
 * extra read of every waiting key; on a quiet connection it delays the reader by this much.
 */
export const JOIN_UNBLOCK_DELAY_MS = 5;

export class SharedEventReader {
  readonly #options: SharedEventReaderOptions;
  readonly #waiters = new Set<Waiter>();
  #blocking: Redis | undefined;
  /** The blocking connection's CLIENT ID while known (reset when it reconnects). */
  #blockingId: number | undefined;
  /** key → id of the XREAD in flight, while one is. */
  #inFlight: Map<string, string> | undefined;
  #looping = false;
  /** Whether the blocked read in flight was already asked to end (`CLIENT UNBLOCK`, or its timer). */
  #unblockSent = false;
  /** Sends the `CLIENT UNBLOCK` of the blocked read in flight, unless it returns first. */
  #unblockTimer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(options: SharedEventReaderOptions) {
    this.#options = options;
  }

  /** The connection whose readiness a reader waits for after an outage (opened on first use). */
  get blocking(): Redis {
    if (!this.#blocking) {
      this.#blocking = this.#options.openBlocking();
      // Every reader waiting through an outage listens for 'ready' on it.
      this.#blocking.setMaxListeners(Number.POSITIVE_INFINITY);
      this.#blocking.on('close', () => {
        this.#blockingId = undefined;
      });
    }
    return this.#blocking;
  }

  /** A source for one reader (see `readRunEventStream`); closing it only drops its pending read. */
  source(): RunEventSource {
    let pending: BlockedRead | undefined;
    return {
      redis: this.blocking,
      // Every blocked read ends by its `blockMs` timer, answered or not.
      settlesInBlockMs: true,
      // Not an async function: its promise would wrap the one returned (two promises more per read).
      read: (key, lastId, blockMs, wanted) => {
        // The client was closed: its readers end now, not after a wait for a connection.
        if (this.#closed) return Promise.reject(readerClosedError());
        if (blockMs === undefined)
          return this.#options.control.xread('COUNT', 100, 'STREAMS', key, lastId).then(xreadEntries);
        return new Promise<StreamEntries>((resolve, reject) => {
          pending = new BlockedRead(this.#waiters, { key, lastId, wanted, blockMs }, resolve, reject);
          this.#wake(pending);
        });
      },
      // A read that settled already is left as it is.
      close: () => pending?.resolve([]),
    };
  }

  /** Ends every pending read (with the closed client's error) and closes the blocking connection. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#unblockTimer);
    for (const waiter of [...this.#waiters]) waiter.reject(readerClosedError());
    this.#blocking?.disconnect();
  }

  #wake(waiter: Waiter): void {
    if (!this.#looping) {
      this.#looping = true;
      this.#loop().finally(() => {
        this.#looping = false;
      });
      return;
    }
    const sent = this.#inFlight?.get(waiter.key);
    if (!this.#inFlight || (sent !== undefined && compareStreamIds(sent, waiter.lastId) <= 0)) return;
    // The blocked read does not cover this reader: end it so the next one does, unless it
    // returns by itself first (JOIN_UNBLOCK_DELAY_MS). One UNBLOCK per blocked read: readers
    // joining before it returns are all in the next one.
    if (this.#blockingId === undefined || this.#unblockSent) return;
    this.#unblockSent = true;
    const blockingId = this.#blockingId;
    this.#unblockTimer = setTimeout(() => {
      this.#unblockTimer = undefined;
      this.#options.control.client('UNBLOCK', blockingId).catch(() => undefined);
    }, JOIN_UNBLOCK_DELAY_MS);
    this.#unblockTimer.unref();
  }

  /**
   * One XREAD BLOCK after another of every waiting key, each from the oldest id its readers have,
   * while readers wait. The reads are awaited here, not in a helper async function: a promise
   * more per read.
   */
  async #loop(): Promise<void> {
    const blockMs = this.#options.blockMs ?? 1000;
    while (!this.#closed && this.#waiters.size > 0) {
      const ids = this.#idsToRead();
      let reply: [string, StreamEntries][];
      try {
        const blocking = this.blocking;
        this.#blockingId ??= (await blocking.client('ID')) as number;
        this.#inFlight = ids;
        reply = ((await blocking.xread(...xreadArgs(ids, blockMs))) ?? []) as [string, StreamEntries][];
      } catch (error) {
        // Every reader waits for the connection in its own way (see `awaitRunEnd`). A failed
        // waiter leaves the set as it is visited (deleting the current entry is safe).
        for (const waiter of this.#waiters) waiter.reject(error);
        continue;
      } finally {
        this.#inFlight = undefined;
        this.#unblockSent = false;
        // The read returned: its UNBLOCK, if not sent yet, would end the next one for nothing.
        clearTimeout(this.#unblockTimer);
        this.#unblockTimer = undefined;
      }
      if (reply.length > 0) this.#deliver(reply);
    }
  }

  /** key → the id to read it after: the oldest of its waiters' (at most MAX_KEYS_PER_READ keys). */
  #idsToRead(): Map<string, string> {
    const ids = new Map<string, string>();
    for (const waiter of this.#waiters) {
      if (ids.size >= MAX_KEYS_PER_READ && !ids.has(waiter.key)) continue;
      const current = ids.get(waiter.key);
      if (current === undefined || compareStreamIds(waiter.lastId, current) < 0)
        ids.set(waiter.key, waiter.lastId);
    }
    return ids;
  }

  /** Hands each waiter the entries of its key it has not seen, in one pass over the waiters. */
  #deliver(reply: [string, StreamEntries][]): void {
    const replied = new Map(reply);
    // A resolved waiter leaves the set as it is visited (deleting the current entry is safe).
    for (const waiter of this.#waiters) {
      const entries = replied.get(waiter.key);
      if (entries === undefined) continue;
      const fresh = entriesAfter(entries, waiter.lastId);
      if (fresh.length === 0) continue;
      // A reader waiting for one kind of entry (`result()`: run-end) waits on past the others
      // in the next read, instead of being woken to ask again for what follows them.
      const wanted = waiter.wanted;
      if (wanted && !fresh.some(([, fields]) => wanted(fields))) {
        waiter.lastId = (fresh.at(-1) as [string, string[]])[0];
        continue;
      }
      waiter.resolve(fresh);
    }
  }
}

/** The arguments of the shared XREAD: `COUNT`, `BLOCK`, then every key, then every id. */
function xreadArgs(
  ids: Map<string, string>,
  blockMs: number,
): ['COUNT', number, 'BLOCK', number, 'STREAMS', ...string[]] {
  const args: ['COUNT', number, 'BLOCK', number, 'STREAMS', ...string[]] = [
    'COUNT',
    100,
    'BLOCK',
    blockMs,
    'STREAMS',
  ];
  for (const key of ids.keys()) args.push(key);
  for (const id of ids.values()) args.push(id);
  return args;
}

/** The entries after stream id `lastId` (ascending, like a stream's): most often all of them, not copied. */
function entriesAfter(entries: StreamEntries, lastId: string): StreamEntries {
  const first = entries[0];
  if (first === undefined || compareStreamIds(first[0], lastId) > 0) return entries;
  return entries.filter(([id]) => compareStreamIds(id, lastId) > 0);
}

/**
 * One reader's blocked read: among the reader's waiters until it is answered, fails, or its
 * `blockMs` passes (answered with no entries). Settling it again does nothing.
 */
class BlockedRead implements Waiter {
  readonly key: string;
  lastId: string;
  readonly wanted: ((fields: string[]) => boolean) | undefined;
  readonly #waiters: Set<Waiter>;
  readonly #resolve: (entries: StreamEntries) => void;
  readonly #reject: (error: unknown) => void;
  readonly #timer: NodeJS.Timeout;

  constructor(
    waiters: Set<Waiter>,
    read: { key: string; lastId: string; wanted: Waiter['wanted']; blockMs: number },
    resolve: (entries: StreamEntries) => void,
    reject: (error: unknown) => void,
  ) {
    this.key = read.key;
    this.lastId = read.lastId;
    this.wanted = read.wanted;
    this.#waiters = waiters;
    this.#resolve = resolve;
    this.#reject = reject;
    this.#timer = setTimeout(() => this.resolve([]), read.blockMs);
    waiters.add(this);
  }

  resolve(entries: StreamEntries): void {
    this.#leave();
    this.#resolve(entries);
  }

  reject(error: unknown): void {
    this.#leave();
    this.#reject(error);
  }

  #leave(): void {
    clearTimeout(this.#timer);
    this.#waiters.delete(this);
  }
}

/**
 * The error of a read of a closed client. Not a connection error (`isConnectionError`): a reader
 * gets it at once instead of waiting for a connection that will not come back.
 */
export function readerClosedError(): Error {
  return new Error('The client was closed while reading run events.');
}

/** The entries of a one-key XREAD reply. */
export function xreadEntries(reply: [string, StreamEntries][] | null): StreamEntries {
  return reply?.[0]?.[1] ?? [];
}
