import type { Logger } from 'pino';
import { boundedRequest, type RequestBound } from '../config/bounded-request.js';
import { openRedis } from '../config/open-redis.js';
import { RunNotFoundError } from '../errors/run-errors.js';
import { deserializeError } from '../errors/serialize-error.js';
import { readRunEventStream, type StreamedRunEvent } from '../events/redis-run-event-stream.js';
import type { SharedEventReader } from '../events/shared-event-reader.js';
import { runKeys } from '../keys.js';
import type { RedisRunRecords } from '../runs/redis-run-records.js';
import type { RunRecord } from '../runs/run-record.js';
import { isTerminalStatus } from '../runs/run-status.js';

/** A submitted run, as the client sees it. */
export interface RunHandle<Output = unknown> {
  readonly id: string;
  /**
   * The run's output once it ends, however long the run takes. While Redis is unreachable the
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

/**
 * {@link RunHandle} over Redis. Waiting never polls BullMQ: `result()` reads the run record
 * and, while the run is unfinished, blocks on the run's event stream (XREAD BLOCK on a
 * connection of its own, closed afterwards) until `run-end`.
 */
export class RedisRunHandle<Output = unknown> implements RunHandle<Output> {
  readonly id: string;
  readonly #bound: RequestBound;
  readonly #prefix: string;
  readonly #records: RedisRunRecords;
  readonly #logger: Logger | undefined;
  readonly #sharedReader: SharedEventReader | undefined;

  constructor(options: {
    runId: string;
    bound: RequestBound;
    prefix: string;
    records: RedisRunRecords;
    logger?: Logger;
    /** The client's one blocking connection for every reader; unset: a connection per reader. */
    sharedReader?: SharedEventReader | undefined;
  }) {
    this.id = options.runId;
    this.#sharedReader = options.sharedReader;
    this.#bound = options.bound;
    this.#prefix = options.prefix;
    this.#records = options.records;
    this.#logger = options.logger;
  }

  async result(): Promise<Output> {
    let record = await this.#record();
    if (!isTerminalStatus(record.status)) {
      for await (const event of this.events()) {
        if (event.type === 'run-end') break;
      }
      record = await this.#record();
    }
    return settle<Output>(record);
  }

  events(options: RunEventsOptions = {}): AsyncIterable<StreamedRunEvent> {
    return {
      [Symbol.asyncIterator]: () =>
        readRunEventStream({
          connection:
            this.#sharedReader?.source() ??
            // Inherits the client's fail-fast settings; XREAD BLOCK needs no command timeout.
            openRedis(this.#bound.redis, {
              role: 'run-events',
              logger: this.#logger,
              perCall: true,
              redis: { connectionName: eventsConnectionName(this.#prefix), commandTimeout: undefined },
            }),
          key: runKeys(this.#prefix, this.id).events,
          requestTimeoutMs: this.#bound.timeoutMs,
          ...options,
          compacted: () => this.#records.compactedEvents(this.id),
          isOver: async () => {
            const record = await boundedRequest(this.#bound, () => this.#records.get(this.id));
            return record === undefined || isTerminalStatus(record.status);
          },
        }),
    };
  }

  async #record(): Promise<RunRecord> {
    const record = await boundedRequest(this.#bound, () => this.#records.get(this.id));
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

function settle<Output>(record: RunRecord): Output {
  if (record.status === 'succeeded') return record.output as Output;
  if (record.error) throw deserializeError(record.error);
  throw new Error(`Run "${record.runId}" ended with status ${record.status} and no error recorded.`);
}
