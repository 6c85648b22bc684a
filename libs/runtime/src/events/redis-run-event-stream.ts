import type { Redis } from 'ioredis';
import { beforeDeadline, untilRedisReady } from '../config/bounded-request.js';
import { isConnectionError } from '../config/watch-connection.js';
import { RUN_EVENT_FIELD } from './redis-run-event-sink.js';
import type { RunEndEvent, RunEvent } from './run-event.js';

/**
 * An event as read back from a run's stream: the {@link RunEvent} plus `eventId`, its id in the
 * stream (a Redis stream id such as `1718000000000-0`, increasing). Pass the last one seen as
 * `after` to resume reading after it.
 */
export type StreamedRunEvent = RunEvent & { eventId: string };

/** The entries of one stream in an XREAD reply: `[id, fields]`. */
export type StreamEntries = [string, string[]][];

/**
 * Where a reader's XREADs go: a connection of its own ({@link dedicatedEventSource}) or a
 * process-wide shared one (`SharedEventReader`).
 */
export interface RunEventSource {
  /** The connection an outage is waited on (its readiness). */
  readonly redis: Redis;
  /**
   * The entries of `key` after `lastId`: waiting up to `blockMs` for some, or not at all without
   * it. `wanted`: a blocked read may go on waiting past entries none of which it matches (they
   * may still be returned with one that does, or when the wait ends, or be left out before one
   * that does: `run-end-reader.ts` answers with the run-end alone). @default every entry
   */
  read(
    key: string,
    lastId: string,
    blockMs?: number,
    wanted?: (fields: string[]) => boolean,
  ): Promise<StreamEntries>;
  /** Ends a pending read at once (the reader is done, or aborted). */
  close(): void;
  /**
   * Whether a read with `blockMs` settles by then on its own timer, even when Redis goes silent
   * (`SharedEventReader`): the reader then adds no deadline timer of its own to that read.
   * @default false (an XREAD BLOCK of its own waits on the socket: the reader bounds it)
   */
  readonly settlesInBlockMs?: boolean;
}

/** A source on a connection of its own: XREAD BLOCK holds it, and closing disconnects it. */
export function dedicatedEventSource(connection: Redis): RunEventSource {
  return {
    redis: connection,
    read: async (key, lastId, blockMs) => {
      const reply =
        blockMs === undefined
          ? await connection.xread('COUNT', 100, 'STREAMS', key, lastId)
          : await connection.xread('COUNT', 100, 'BLOCK', blockMs, 'STREAMS', key, lastId);
      return (reply?.[0]?.[1] ?? []) as StreamEntries;
    },
    // Closing the connection is what ends a pending XREAD BLOCK promptly.
    close: () => connection.disconnect(),
  };
}

/** Options of {@link readRunEventStream}. */
export interface ReadRunEventStreamOptions {
  /** A connection of its own (XREAD BLOCK holds it; the reader closes it when it ends), or a source. */
  connection: Redis | RunEventSource;
  /** The run's stream key (`runKeys(…).events`). */
  key: string;
  /** Longest single XREAD BLOCK, in ms; between blocks `isOver` is asked. @default 1000 */
  blockMs?: number;
  /**
   * Asked whenever a block passes with no new event: `true` ends the reader (e.g. the run
   * ended but its stream was trimmed or expired, so `run-end` will never be read).
   */
  isOver?: () => Promise<boolean>;
  /**
   * A finished run's compacted events (its stream is gone then), or `undefined` while it has
   * none. Asked first, and once more when the run is over and its stream has nothing left.
   * @default none
   */
  compacted?: () => Promise<StreamedRunEvent[] | undefined>;
  /** Read only events after this stream id (an `eventId` already seen). @default from the start */
  after?: string;
  /** Aborting ends the reader at once: the connection is closed, a pending read ends with it. */
  signal?: AbortSignal;
  /**
   * How long Redis may stay silent: a lost connection is waited for and the read repeated
   * quietly, but once Redis has not answered for this long the reader fails with
   * `RedisUnavailableError`. The connection must not queue commands while it is down
   * (`enableOfflineQueue: false`, `maxRetriesPerRequest: 0`). @default unbounded: reads wait
   * through any outage
   */
  requestTimeoutMs?: number;
  /**
   * The run record's output and error, asked when a yielded `run-end` says they were too large
   * for it (`outcomeInRecord`): the event is given them. `undefined`: the event is yielded as
   * it is. @default events are yielded as they are
   */
  recordedOutcome?: () => Promise<Pick<RunEndEvent, 'output' | 'error'> | undefined>;
}

/**
 * Reads a run's event stream from the start (or after `after`) and live, yielding each event in
 * order, and ends after `run-end`. Uses XREAD BLOCK on the dedicated `connection` and closes it
 * when the iteration ends for any reason (done, `break`, `signal` aborted, error), so no waiter
 * leaks. An abort ends the iteration quietly (no error).
 */
export async function* readRunEventStream(
  options: ReadRunEventStreamOptions,
): AsyncGenerator<StreamedRunEvent> {
  const { key, signal } = options;
  const source =
    'xread' in options.connection ? dedicatedEventSource(options.connection) : options.connection;
  const blockMs = options.blockMs ?? 1000;
  let lastId = options.after ?? '0';
  const bound =
    options.requestTimeoutMs === undefined
      ? undefined
      : { redis: source.redis, timeoutMs: options.requestTimeoutMs };
  // When Redis stopped answering; reset by every answer.
  let silentSince: number | undefined;
  const onAbort = () => source.close();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const compacted = await options.compacted?.();
    if (compacted) {
      yield* completed(eventsAfter(compacted, lastId), options.recordedOutcome);
      return;
    }
    let over = false;
    for (;;) {
      if (signal?.aborted) return;
      let entries: StreamEntries;
      try {
        // Once the run is over, read what is left without blocking: run-end may have landed
        // between the last empty block and the `isOver` check.
        const read = source.read(key, lastId, over ? undefined : blockMs);
        // A blocked read of a source that settles by `blockMs` needs no deadline of ours (it would
        // only fire `timeoutMs` after that): one timer and one promise less per read. A silent
        // Redis is still noticed, by the bounded `isOver` read after the empty answer.
        entries =
          bound && !(source.settlesInBlockMs === true && !over)
            ? await beforeDeadline(bound, Date.now() + blockMs + bound.timeoutMs, read)
            : await read;
        silentSince = undefined;
      } catch (error) {
        if (signal?.aborted) return;
        if (!bound || !isConnectionError(error)) throw error;
        // Lost connection: wait for it (quietly, it is logged once) and read again from lastId.
        silentSince ??= Date.now();
        await untilRedisReady(bound, silentSince + bound.timeoutMs);
        continue;
      }
      if (signal?.aborted) return;
      if (entries.length === 0) {
        if (over) {
          // The run ended and its stream was compacted while this reader was on it.
          const events = eventsAfter((await options.compacted?.()) ?? [], lastId);
          yield* completed(events, options.recordedOutcome);
          return;
        }
        over = options.isOver !== undefined && (await options.isOver());
        continue;
      }
      for (const [id, fields] of entries) {
        lastId = id;
        const event = parseEvent(fields);
        if (!event) continue;
        const streamed: StreamedRunEvent = { ...event, eventId: id };
        yield event.type === 'run-end' ? await withOutcome(streamed, options.recordedOutcome) : streamed;
        if (event.type === 'run-end' || signal?.aborted) return;
      }
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    source.close();
  }
}

/** The events after stream id `lastId`, up to `run-end`. */
function* eventsAfter(events: readonly StreamedRunEvent[], lastId: string): Generator<StreamedRunEvent> {
  for (const event of events) {
    if (compareStreamIds(event.eventId, lastId) <= 0) continue;
    yield event;
    if (event.type === 'run-end') return;
  }
}

/** `events`, each `run-end` completed by {@link withOutcome}. */
async function* completed(
  events: Iterable<StreamedRunEvent>,
  recordedOutcome: ReadRunEventStreamOptions['recordedOutcome'],
): AsyncGenerator<StreamedRunEvent> {
  for (const event of events)
    yield event.type === 'run-end' ? await withOutcome(event, recordedOutcome) : event;
}

/** A `run-end` that left its outcome in the record, given it (when the record has it). */
async function withOutcome(
  event: StreamedRunEvent,
  recordedOutcome: ReadRunEventStreamOptions['recordedOutcome'],
): Promise<StreamedRunEvent> {
  if (event.type !== 'run-end' || !event.outcomeInRecord || !recordedOutcome) return event;
  const outcome = await recordedOutcome();
  if (outcome === undefined) return event;
  const { outcomeInRecord: _marker, ...rest } = event;
  const whole: StreamedRunEvent = { ...rest };
  if (event.status === 'succeeded') whole.output = outcome.output;
  if (outcome.error !== undefined) whole.error = outcome.error;
  return whole;
}

/** Orders two stream ids (`<ms>-<seq>`; a bare `<ms>` counts as `<ms>-0`). */
export function compareStreamIds(a: string, b: string): number {
  // Called per waiter and entry on every shared read: no arrays made.
  const aDash = a.indexOf('-');
  const bDash = b.indexOf('-');
  const aMs = Number(aDash < 0 ? a : a.slice(0, aDash));
  const bMs = Number(bDash < 0 ? b : b.slice(0, bDash));
  if (aMs !== bMs) return aMs - bMs;
  const aSeq = aDash < 0 ? 0 : Number(a.slice(aDash + 1));
  const bSeq = bDash < 0 ? 0 : Number(b.slice(bDash + 1));
  return aSeq - bSeq;
}

/** The events of an XRANGE / XREAD reply's entries; entries that do not parse are skipped. */
export function parseStreamEntries(entries: readonly [string, string[]][]): StreamedRunEvent[] {
  const events: StreamedRunEvent[] = [];
  for (const [id, fields] of entries) {
    const event = parseEvent(fields);
    if (!event) continue;
    // Parsed just now, so owned here: an event object is given its id in place, not copied.
    if (typeof event === 'object' && !Array.isArray(event))
      events.push(Object.assign(event, { eventId: id }));
    else events.push({ ...(event as RunEvent), eventId: id });
  }
  return events;
}

/** Whether an entry's fields may be a `run-end` (its text holds "run-end", its type; a match is parsed to know). */
export function mayBeRunEnd(fields: string[]): boolean {
  const index = fields.indexOf(RUN_EVENT_FIELD);
  return index >= 0 && fields[index + 1]?.includes('"run-end"') === true;
}

/** `endOnly` (`awaitRunEnd`): `undefined` for any event but `run-end` (most are not even parsed then). */
export function parseEvent(fields: string[], endOnly = false): RunEvent | undefined {
  const index = fields.indexOf(RUN_EVENT_FIELD);
  const text = index >= 0 ? fields[index + 1] : undefined;
  if (text === undefined) return undefined;
  // What `mayBeRunEnd` tests, on the text already found.
  if (endOnly && !text.includes('"run-end"')) return undefined;
  let event: RunEvent;
  try {
    event = JSON.parse(text) as RunEvent;
  } catch {
    return undefined;
  }
  return endOnly && event?.type !== 'run-end' ? undefined : event;
}
