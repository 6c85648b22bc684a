/**
 * `result()`'s reader on one Redis (issue 15): a waiting run is woken once, by its end.
 *
 * The shared reader (`shared-event-reader.ts`) blocks one XREAD on the streams of every run the
 * process awaits, so any event any of them writes wakes it and the next XREAD names every
 * stream again: Redis' work per awaited run grows with the number of runs awaited (~200 µs of
 * Redis CPU per XREAD at 200, several per run). Here a waiting read subscribes to its run's end
 * channel (`runEndChannel`: `finish-run-12` publishes the run-end there, with its stream id)
 * and settles on that notice with the run-end itself. Per awaited run: its share of one
 * SUBSCRIBE and one UNSUBSCRIBE (the channels of a tick go in one command each) and one read of
 * its stream once subscribed (an end written before that is not missed), whatever else it writes.
 *
 * A notice can be lost (the subscriber reconnecting): a waiting read reads the stream at once
 * after a reconnect, and ends by its deadline (`blockMs`) with nothing read, for the caller to
 * ask the run's record, as with the other readers. A run found over there whose run-end no
 * notice announced, with the subscriber connected all along, was ended by a finisher that
 * publishes none (a worker of an earlier version, during a rolling deploy): after a few, this
 * client's waits go to the `fallback` reader (the shared XREAD) for ten minutes, which the log
 * says, then notices are tried again.
 */
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { TickBatch } from '../shared/tick-batch.js';
import type { EventReader } from './cluster-event-reader.js';
import { runEndChannel } from './event-notice.js';
import { ReadWait } from './read-wait.js';
import { RUN_EVENT_FIELD } from './redis-run-event-sink.js';
import {
  compareStreamIds,
  mayBeRunEnd,
  type RunEventSource,
  type StreamEntries,
} from './redis-run-event-stream.js';
import { readerClosedError, xreadEntries } from './shared-event-reader.js';

/** Entries read per XREAD (as the other readers). */
const COUNT = 100;

/** Options of {@link RunEndReader}. */
export interface RunEndReaderOptions {
  /** The client's connection: reads of a stream go there. Not closed here. */
  control: Redis;
  /** Opens the subscriber, on first use (closed by {@link RunEndReader.close}). */
  openSubscriber: () => Redis;
  /** Makes the reader waits go to after runs ended without a notice (closed with this one). */
  fallback: () => EventReader;
  logger?: Logger | undefined;
}

/** A run's end as its notice says it: the run-end's stream id and its JSON. */
interface EndNotice {
  id: string;
  text: string;
}

/** What a reader is told of its run's end: the notice, or `undefined` when it did not parse. */
type Listener = (notice: EndNotice | undefined) => void;

/** The readers waiting on one channel, and its subscription. */
interface Channel {
  /** Settles once SUBSCRIBE answered (either way: a failed one leaves readers to their deadline). */
  ready: Promise<void>;
  listeners: Set<Listener>;
}

/**
 * Runs found ended without a notice before waits go to the fallback reader: one could be a
 * notice still on its way when the read after the record check found the end.
 */
const MISSES_BEFORE_FALLBACK = 3;

/** How long waits go to the fallback reader before notices are tried again (a deploy's length). */
const FALLBACK_MS = 10 * 60_000;

export class RunEndReader implements EventReader {
  readonly #options: RunEndReaderOptions;
  readonly #channels = new Map<string, Channel>();
  /** Every source's wake-up, for a close or a subscriber that reconnected (notices may be lost). */
  readonly #sources = new Set<() => void>();
  /** Channels to subscribe to, and to leave, with the next command of each (one per tick). */
  #joining: { names: string[]; settle: () => void; ready: Promise<void> } | undefined;
  #leaving: Set<string> | undefined;
  #subscriber: Redis | undefined;
  /** Counts the subscriber's lost connections: a notice may be lost across a change. */
  #connection = 0;
  /** The subscriber lost its connection and is not ready again yet. */
  #lost = false;
  #fallback: EventReader | undefined;
  #misses = 0;
  /** When waits went to the fallback reader (`Date.now()`), until {@link FALLBACK_MS} later. */
  #fellBackAt: number | undefined;
  #closed = false;

  /**
   * Reads without BLOCK, those of one tick in one XREAD (most are the first read of a run that
   * just started waiting: many in a tick under load).
   */
  readonly #reads: TickBatch<{ key: string; lastId: string }, StreamEntries>;

  constructor(options: RunEndReaderOptions) {
    this.#options = options;
    this.#reads = new TickBatch((reads) => readStreams(options.control, reads));
  }

  get #subscribed(): Redis {
    if (!this.#subscriber) {
      const subscriber = this.#options.openSubscriber();
      subscriber.on('message', (channel: string, message: string) => {
        const entry = this.#channels.get(channel);
        if (!entry) return;
        const notice = parseNotice(message);
        for (const listener of entry.listeners) listener(notice);
      });
      // Connected again (ioredis subscribes again by itself): notices sent meanwhile are lost,
      // so every waiting read reads its stream once more instead of waiting for its deadline.
      subscriber.on('close', () => {
        this.#connection += 1;
        this.#lost = true;
      });
      subscriber.on('ready', () => {
        if (!this.#lost) return;
        this.#lost = false;
        for (const wake of this.#sources) wake();
      });
      this.#subscriber = subscriber;
    }
    return this.#subscriber;
  }

  source(): RunEventSource {
    if (this.#fellBackAt !== undefined) {
      if (Date.now() - this.#fellBackAt < FALLBACK_MS) return this.#fallbackReader().source();
      // Long enough for a rolling deploy to end: notices are tried again.
      this.#fellBackAt = undefined;
      this.#misses = 0;
    }
    const control = this.#options.control;
    let channel: { name: string; entry: Channel } | undefined;
    // Whether the stream may hold entries not read yet: at first, and after a reconnect.
    let stale = true;
    let notice: EndNotice | undefined;
    /** Whether any notice came: a run-end found without one was not announced. */
    let noticed = false;
    let closed = false;
    let wait: ReadWait | undefined;
    const onNotice: Listener = (received) => {
      // A notice this reader cannot parse still says the run ended: its stream is read then.
      noticed = true;
      if (received) notice = received;
      else stale = true;
      wait?.wake();
    };
    const onWake = () => {
      stale = true;
      wait?.wake();
    };
    const readNow = (key: string, lastId: string) => this.#reads.add({ key, lastId });
    /**
     * The end a notice brought, when it is after `lastId` and the caller wants only such an entry
     * (`awaitRunEnd`): the read it saves. Any other notice leaves the stream to read.
     */
    const noticedEnd = (lastId: string, wanted: ((fields: string[]) => boolean) | undefined) => {
      const ended = notice;
      notice = undefined;
      if (!ended || compareStreamIds(ended.id, lastId) <= 0) return undefined;
      const fields = [RUN_EVENT_FIELD, ended.text];
      if (wanted?.(fields)) return [[ended.id, fields]] as StreamEntries;
      stale = true;
      return undefined;
    };
    /** The subscriber's connection count once this source's channel was subscribed. */
    let subscribedIn: number | undefined;
    return {
      redis: control,
      // A wait ends by its own timer, with nothing read (the caller asks the record then): no
      // deadline of the caller's is needed.
      settlesInBlockMs: true,
      read: async (key, lastId, blockMs, wanted) => {
        // The client was closed: its readers end now, not after a wait for a connection.
        if (this.#closed) throw readerClosedError();
        if (blockMs === undefined) {
          // Its notice came while the caller asked the record (a wait that ended by its deadline).
          const ended = noticedEnd(lastId, wanted);
          if (ended) return ended;
          const entries = await readNow(key, lastId);
          // The run is over (the caller asked its record) and its end came without a notice,
          // while subscribed and connected: a finisher that publishes none.
          if (
            !noticed &&
            subscribedIn === this.#connection &&
            entries.some(([, fields]) => mayBeRunEnd(fields))
          )
            this.#missed(key);
          return entries;
        }
        if (closed) return [];
        if (!channel) {
          this.#sources.add(onWake);
          const name = runEndChannel(key);
          channel = { name, entry: this.#join(name, onNotice) };
        }
        const current = new ReadWait(blockMs);
        wait = current;
        let woken = current.next();
        try {
          // Subscribed before the first read: an end after that read is not missed.
          if (subscribedIn === undefined) {
            await Promise.race([channel.entry.ready, woken]);
            subscribedIn = this.#connection;
          }
          for (;;) {
            if (this.#closed) throw readerClosedError();
            if (closed || current.timedOut) return [];
            // The end itself, when the caller wants only that: nothing to read.
            const ended = noticedEnd(lastId, wanted);
            if (ended) return ended;
            if (stale) {
              stale = false;
              woken = current.next();
              let entries: StreamEntries;
              try {
                entries = await readNow(key, lastId);
              } catch (error) {
                // Not read (the caller waits for the connection and asks again): still to read.
                stale = true;
                throw error;
              }
              // A full page: more may follow at once (an end written before the subscription too).
              if (entries.length >= COUNT) stale = true;
              if (entries.length > 0) return entries;
            }
            await woken;
            woken = current.next();
          }
        } finally {
          current.end();
          wait = undefined;
        }
      },
      close: () => {
        closed = true;
        this.#sources.delete(onWake);
        if (channel) this.#leave(channel.name, onNotice);
        channel = undefined;
        wait?.wake();
      },
    };
  }

  close(): void {
    this.#closed = true;
    for (const wake of [...this.#sources]) wake();
    this.#channels.clear();
    this.#subscriber?.disconnect();
    this.#fallback?.close();
  }

  /** A run ended without a notice while this reader was subscribed: past a few, waits read streams. */
  #missed(key: string): void {
    this.#misses += 1;
    if (this.#fellBackAt !== undefined || this.#misses < MISSES_BEFORE_FALLBACK) return;
    this.#fellBackAt = Date.now();
    this.#options.logger?.warn(
      { events: key },
      'runs ended without an end notice (workers of an earlier version?): result() reads run streams for the next 10 minutes',
    );
  }

  #fallbackReader(): EventReader {
    this.#fallback ??= this.#options.fallback();
    return this.#fallback;
  }

  #join(name: string, listener: Listener): Channel {
    let entry = this.#channels.get(name);
    if (!entry) {
      entry = { ready: this.#subscribe(name), listeners: new Set() };
      this.#channels.set(name, entry);
    }
    entry.listeners.add(listener);
    return entry;
  }

  /** Drops `listener`; a channel left without any is unsubscribed with the others of the tick. */
  #leave(name: string, listener: Listener): void {
    const entry = this.#channels.get(name);
    if (!entry?.listeners.delete(listener) || entry.listeners.size > 0 || this.#closed) return;
    if (!this.#leaving) {
      this.#leaving = new Set();
      process.nextTick(() => this.#unsubscribe());
    }
    this.#leaving.add(name);
  }

  #unsubscribe(): void {
    const names: string[] = [];
    // A channel joined again in the same tick stays (with its subscription).
    for (const name of this.#leaving ?? [])
      if (this.#channels.get(name)?.listeners.size === 0) {
        this.#channels.delete(name);
        names.push(name);
      }
    this.#leaving = undefined;
    if (names.length > 0 && !this.#closed) this.#subscribed.unsubscribe(...names).catch(() => undefined);
  }

  /** Subscribes to `name` with the other channels joined in this tick: one SUBSCRIBE. */
  #subscribe(name: string): Promise<void> {
    if (!this.#joining) {
      let settle = () => {};
      const ready = new Promise<void>((resolve) => {
        settle = resolve;
      });
      const joining = { names: [] as string[], settle, ready };
      this.#joining = joining;
      process.nextTick(() => {
        this.#joining = undefined;
        // Not a channel left (and unsubscribed) before this was sent: it would stay subscribed.
        const names = joining.names.filter((joined) => this.#channels.get(joined)?.ready === ready);
        if (this.#closed || names.length === 0) return joining.settle();
        this.#subscribed.subscribe(...names).then(joining.settle, joining.settle);
      });
    }
    this.#joining.names.push(name);
    return this.#joining.ready;
  }
}

/** A stream id as XADD makes them (`<ms>-<seq>`). */
const STREAM_ID = /^\d{1,20}-\d{1,20}$/;

/** A notice's end (`<stream id> <run-end JSON>`), or `undefined` when it says something else. */
function parseNotice(message: string): EndNotice | undefined {
  const space = message.indexOf(' ');
  const id = message.slice(0, Math.max(space, 0));
  if (!STREAM_ID.test(id)) return undefined;
  return { id, text: message.slice(space + 1) };
}

/**
 * The entries after `lastId` of each stream, in one XREAD (without BLOCK) when the keys are all
 * different (a reply names each key once), else one each.
 */
async function readStreams(
  control: Redis,
  reads: readonly { key: string; lastId: string }[],
): Promise<StreamEntries[]> {
  const keys = new Set(reads.map(({ key }) => key));
  if (reads.length === 1 || keys.size < reads.length)
    return Promise.all(
      reads.map(async ({ key, lastId }) =>
        xreadEntries(await control.xread('COUNT', COUNT, 'STREAMS', key, lastId)),
      ),
    );
  const reply = (await control.xread(
    'COUNT',
    COUNT,
    'STREAMS',
    ...keys,
    ...reads.map(({ lastId }) => lastId),
  )) as [string, StreamEntries][] | null;
  const byKey = new Map(reply ?? []);
  return reads.map(({ key }) => byKey.get(key) ?? []);
}
