/**
 * What `result()` waits on: a run's `run-end`, read from its event stream. The same reads, ids,
 * waits and outage handling as `readRunEventStream` (which `events()` uses), passing over every
 * other entry unparsed, and no timeline looked for before the stream (the record was just read or
 * submitted unfinished), as one plain loop instead of an async generator: a generator step costs promises of its own (`next`, `return`, each
 * `await` in it) and its compiled code is large (V8 compiled `readRunEventStream` twice, ~130 ms
 * of a client's first thousand runs; docs/performance.md, round 7).
 */
import { beforeDeadline, type RequestBound, untilRedisReady } from '../config/bounded-request.js';
import { isConnectionError } from '../config/watch-connection.js';
import {
  compareStreamIds,
  mayBeRunEnd,
  parseEvent,
  type RunEventSource,
  type StreamedRunEvent,
} from '../events/redis-run-event-stream.js';
import type { RunEndEvent } from '../events/run-event.js';

/** A `run-end` as read from a run's stream (or its compacted timeline), with its id there. */
export type StreamedRunEnd = RunEndEvent & { eventId: string };

/** What {@link awaitRunEnd} reads and asks. */
export interface RunEndWait {
  /** Where the reads go (the client's shared reader); closed when the wait ends. */
  source: RunEventSource;
  /** The run's stream key (`runKeys(…).events`). */
  key: string;
  /** Read only after this stream id. @default from the start */
  after?: string | undefined;
  /** How long Redis may stay silent before `RedisUnavailableError` (the source's connection is waited on). */
  timeoutMs: number;
  /** Longest single blocked read, in ms; between blocks `isOver` is asked. @default 1000 */
  blockMs?: number;
  /** Asked when a block passes with nothing new: whether the run ended (or its record is gone). */
  isOver: () => Promise<boolean>;
  /** A finished run's compacted events, read when it is over and its stream has nothing left. */
  compacted: () => Promise<StreamedRunEvent[] | undefined>;
}

/**
 * The first `run-end` after `after`, or `undefined` when the run is over and none is left to
 * read (its stream trimmed or expired, and no timeline holds one). Entries before `run-end` are
 * passed over unparsed; a connection lost is waited for and the read repeated from the last id.
 * @throws RedisUnavailableError when Redis stays silent longer than `timeoutMs`
 */
export async function awaitRunEnd(wait: RunEndWait): Promise<StreamedRunEnd | undefined> {
  let lastId = wait.after ?? '0';
  // When Redis stopped answering; reset by every answer.
  let silentSince: number | undefined;
  let over = false;
  try {
    for (;;) {
      let entries: [string, string[]][];
      try {
        // Once the run is over, what is left is read without blocking: run-end may have landed
        // between the last empty block and the `isOver` check.
        entries = await readAfter(wait, lastId, !over);
        silentSince = undefined;
      } catch (error) {
        if (!isConnectionError(error)) throw error;
        silentSince ??= Date.now();
        await untilRedisReady(boundOf(wait), silentSince + wait.timeoutMs);
        continue;
      }
      if (entries.length === 0) {
        // Over with nothing left in the stream: it was compacted (or trimmed) meanwhile.
        if (over) return compactedEnd((await wait.compacted()) ?? [], lastId);
        over = await wait.isOver();
        continue;
      }
      const end = runEndIn(entries);
      if (end) return end;
      lastId = (entries.at(-1) as [string, string[]])[0];
    }
  } finally {
    wait.source.close();
  }
}

/** The entries of the run's stream after `lastId`: `blocking`, waiting up to `blockMs` for some. */
function readAfter(wait: RunEndWait, lastId: string, blocking: boolean): Promise<[string, string[]][]> {
  const { source } = wait;
  const blockMs = wait.blockMs ?? 1000;
  const read = source.read(wait.key, lastId, blocking ? blockMs : undefined, mayBeRunEnd);
  // A source that settles a blocked read by `blockMs` needs no deadline of ours.
  if (blocking && source.settlesInBlockMs === true) return read;
  return beforeDeadline(boundOf(wait), Date.now() + blockMs + wait.timeoutMs, read);
}

/** The first `run-end` of `entries`, with its stream id; the others are passed over unparsed. */
function runEndIn(entries: readonly [string, string[]][]): StreamedRunEnd | undefined {
  for (const [id, fields] of entries) {
    const event = parseEvent(fields, true);
    // Parsed just now, so owned here: given its id in place, not copied.
    if (event?.type === 'run-end') return Object.assign(event, { eventId: id });
  }
  return undefined;
}

/** The request bound of the wait's connection (for its outage and deadline paths only). */
function boundOf(wait: RunEndWait): RequestBound {
  return { redis: wait.source.redis, timeoutMs: wait.timeoutMs };
}

/** The first `run-end` of a compacted timeline after stream id `lastId`. */
function compactedEnd(events: readonly StreamedRunEvent[], lastId: string): StreamedRunEnd | undefined {
  for (const event of events)
    if (event.type === 'run-end' && compareStreamIds(event.eventId, lastId) > 0) return event;
  return undefined;
}
