import type { Logger } from 'pino';
import { boundedRequest, type RequestBound } from '../config/bounded-request.js';
import { openRedis } from '../config/open-redis.js';
import { RunNotFoundError } from '../errors/run-errors.js';
import type { EventReader } from '../events/cluster-event-reader.js';
import {
  dedicatedEventSource,
  type RunEventSource,
  readRunEventStream,
  type StreamedRunEvent,
} from '../events/redis-run-event-stream.js';
import { qualifyId, unqualifyId } from '../jobs/tenant-ids.js';
import { runKeys } from '../keys.js';
import { COMPACTED_STREAM_GRACE_MS, type RedisRunRecords } from '../runs/redis-run-records.js';
import type { RunRecord } from '../runs/run-record.js';
import { isTerminalStatus } from '../runs/run-status.js';
import { awaitRunEnd, type RunEndWait } from './await-run-end.js';
import { outcomeOfRunEnd, type RunOutcome, settleOutcome } from './run-outcome.js';

/** A submitted run, as the client sees it. */
export interface RunHandle<Output = unknown> {
  readonly id: string;
  /**
   * The run's output once it ends, however long the run takes. It settles on the run's `run-end`
   * event, which carries the output or error (the finish script writes it with the record's end,
   * in one script), or on the terminal record: the record is read when the event does not carry
   * them (a large output, an event from an earlier version). A `run-end` the record does not
   * confirm (its write lost by a Redis crash: the record went back to queued or running, and the
   * run executes again) is not an end, the wait goes on. While Redis is unreachable the
   * wait is resumed quietly once it is back; when Redis stays silent longer than the client's
   * `requestTimeoutMs` it rejects with `RedisUnavailableError` (the run goes on: call `result()`
   * again later). Rejects with the run's error, rebuilt with its original
   * `name`, message, data and cause (`XxxError.is(e)` works; `instanceof` does not), an
   * `AbortError` when it was cancelled, or `RunNotFoundError`.
   */
  result(): Promise<Output>;
  /**
   * Every event of the run from its start (or after `options.after`), then live, ending after
   * `run-end` — or at once, quietly, when `options.signal` aborts (its blocking connection is
   * closed then, not at the next event). Bounded like `result()`: a lost connection is resumed,
   * a silence longer than `requestTimeoutMs` ends the iteration with `RedisUnavailableError`
   * (resume with `after`). Each event carries `eventId`, its id in the run's
   * stream: pass the last one seen as `after` to resume without seeing it again.
   */
  events(options?: RunEventsOptions): AsyncIterable<StreamedRunEvent>;
}

/** Options of {@link RunHandle.events}. */
export interface RunEventsOptions {
  /** Ends the iteration and closes its connection when aborted. @default never */
  signal?: AbortSignal;
  /** An `eventId` already seen: only later events are read. @default from the start */
  after?: string;
}

/** What the run handles of one client share (one object per client, not ten fields per handle). */
export interface RunHandleContext {
  /** The tenant whose runs the handles are (the handles of a tenant's client). */
  readonly tenant: string | undefined;
  readonly bound: RequestBound;
  readonly prefix: string;
  readonly records: RedisRunRecords;
  readonly logger?: Logger | undefined;
  /** The client's one blocking connection for every reader; unset: a connection per reader. */
  readonly sharedReader?: EventReader | undefined;
  /** The client's reader for `result()` (on one Redis, of end notices); unset: the one `events()` uses. */
  readonly resultReader?: EventReader | undefined;
}

/**
 * {@link RunHandle} over Redis. Waiting never polls BullMQ: `result()` reads the run record
 * and, while the run is unfinished, waits for its `run-end` on the client's reader for results
 * (on one Redis its end notice, `events/run-end-reader.ts`; on a cluster its stream's notices).
 */
export class RedisRunHandle<Output = unknown> implements RunHandle<Output> {
  readonly id: string;
  /** The run id in keys and job ids (qualified by the tenant, `jobs/tenant-ids.ts`). */
  readonly #storedId: string;
  readonly #context: RunHandleContext;
  /**
   * When (`performance.now()`) this client's own submit left the run queued, if it did: a
   * `result()` soon after needs no record read to know the run is unfinished.
   */
  readonly #queuedAt: number | undefined;

  /** `runId`: the run id as the caller names it. */
  constructor(context: RunHandleContext, runId: string, queuedAt?: number) {
    this.id = runId;
    this.#context = context;
    this.#storedId = qualifyId(context.tenant, runId);
    this.#queuedAt = queuedAt;
  }

  async result(): Promise<Output> {
    // Just submitted queued by this client: read as unfinished without reading the record. Should
    // it have ended (and been compacted) meanwhile, its stream is still there within the grace
    // (compact-events-2), run-end is read from it, and the record read after run-end settles it.
    let record: RunOutcome = this.#freshlyQueued()
      ? { runId: this.#storedId, status: 'queued' }
      : await this.#record();
    let after: string | undefined;
    while (!isTerminalStatus(record.status)) {
      // Only the end matters here, so the tenant's view of the events is not needed. Reading on
      // after a run-end the record did not confirm (its end lost with the record's, the record
      // went back in time) starts after it: the run's next end follows it.
      const end = await awaitRunEnd(this.#endWait(after));
      if (end) after = end.eventId;
      // The common end: the event carries the outcome, no record read.
      record = (end && outcomeOfRunEnd(end)) ?? (await this.#record());
    }
    return settleOutcome<Output>(record);
  }

  /** What `result()` waits on: the run's stream after `after`, on the client's result reader. */
  #endWait(after: string | undefined): RunEndWait {
    const { records, bound } = this.#context;
    return {
      source: this.#source(this.#context.resultReader ?? this.#context.sharedReader),
      key: runKeys(this.#context.prefix, this.#storedId).events,
      after,
      timeoutMs: bound.timeoutMs,
      isOver: () => this.#isOver(),
      compacted: () => records.compactedEvents(this.#storedId),
    };
  }

  /**
   * Whether this client's submit left the run queued less than half the compacted stream's grace
   * ago: a run that ended since then still has its stream, so it can be read without looking for
   * its timeline first (past the grace, a stream read could block a whole block time for nothing).
   */
  #freshlyQueued(): boolean {
    return this.#queuedAt !== undefined && performance.now() - this.#queuedAt < COMPACTED_STREAM_GRACE_MS / 2;
  }

  events(options: RunEventsOptions = {}): AsyncIterable<StreamedRunEvent> {
    const events = this.#storedEvents(options, this.#context.sharedReader);
    if (this.#context.tenant === undefined) return events;
    return { [Symbol.asyncIterator]: () => tenantView(events[Symbol.asyncIterator]()) };
  }

  #storedEvents(options: RunEventsOptions, reader: EventReader | undefined): AsyncIterable<StreamedRunEvent> {
    const { bound, records, prefix } = this.#context;
    return {
      [Symbol.asyncIterator]: () =>
        readRunEventStream({
          connection: this.#source(reader),
          key: runKeys(prefix, this.#storedId).events,
          requestTimeoutMs: bound.timeoutMs,
          ...options,
          compacted: () => records.compactedEvents(this.#storedId),
          recordedOutcome: async () => {
            const record = await boundedRequest(bound, () => records.get(this.#storedId));
            if (record === undefined || !isTerminalStatus(record.status)) return undefined;
            return { output: record.output, error: record.error };
          },
          isOver: () => this.#isOver(),
        }),
    };
  }

  /** A source for one reader: `reader`'s, or a connection of its own (closed with the reader). */
  #source(reader: EventReader | undefined): RunEventSource {
    if (reader) return reader.source();
    // Inherits the client's fail-fast settings; XREAD BLOCK needs no command timeout.
    const connection = openRedis(this.#context.bound.redis, {
      role: 'run-events',
      logger: this.#context.logger,
      perCall: true,
      redis: { connectionName: eventsConnectionName(this.#context.prefix), commandTimeout: undefined },
    });
    return dedicatedEventSource(connection);
  }

  /** Whether the run ended or its record is gone: asked when a blocked read passed with nothing new. */
  async #isOver(): Promise<boolean> {
    const { bound, records } = this.#context;
    const record = await boundedRequest(bound, () => records.get(this.#storedId));
    return record === undefined || isTerminalStatus(record.status);
  }

  async #record(): Promise<RunRecord> {
    const { bound, records } = this.#context;
    const record = await boundedRequest(bound, () => records.get(this.#storedId));
    if (!record) throw new RunNotFoundError(this.id);
    return record;
  }
}

/**
 * The client name of every event-reading connection (`CLIENT LIST` shows `name=…`), so open
 * readers can be counted per prefix. Redis names take no spaces or newlines.
 */
export function eventsConnectionName(prefix: string): string {
  return `flotilla-events:${prefix}`.replace(/[^\w:.-]/g, '_');
}

/** The handle of an id no run can have (it breaks the id rule): every call says `RunNotFoundError`. */
export class MissingRunHandle<Output = unknown> implements RunHandle<Output> {
  readonly id: string;

  constructor(runId: string) {
    this.id = runId;
  }

  async result(): Promise<Output> {
    throw new RunNotFoundError(this.id);
  }

  events(): AsyncIterable<StreamedRunEvent> {
    const runId = this.id;
    return {
      [Symbol.asyncIterator]: () => ({
        next: async () => {
          throw new RunNotFoundError(runId);
        },
      }),
    };
  }
}

/** A tenant's events name runs as the tenant does (without the tenant qualifier). */
async function* tenantView(events: AsyncIterator<StreamedRunEvent>): AsyncGenerator<StreamedRunEvent> {
  const iterable = { [Symbol.asyncIterator]: () => events };
  for await (const event of iterable) {
    const named: StreamedRunEvent = { ...event, runId: unqualifyId(event.runId) };
    if ('childRunId' in named && typeof named.childRunId === 'string')
      Object.assign(named, { childRunId: unqualifyId(named.childRunId) });
    yield named;
  }
}
