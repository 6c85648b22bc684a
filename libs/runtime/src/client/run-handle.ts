import type { Redis } from 'ioredis';
import { deserializeError } from '../errors/serialize-error.js';
import { readRunEventStream } from '../events/redis-run-event-stream.js';
import type { RunEvent } from '../events/run-event.js';
import { runKeys } from '../keys.js';
import type { RedisRunRecords } from '../runs/redis-run-records.js';
import type { RunRecord } from '../runs/run-record.js';
import { isTerminalStatus } from '../runs/run-status.js';
import { RunNotFoundError } from './run-not-found-error.js';

/** A submitted run, as the client sees it. */
export interface RunHandle<Output = unknown> {
  readonly id: string;
  /**
   * The run's output once it ends. Rejects with the run's error, rebuilt with its original
   * `name`, message, data and cause (`XxxError.is(e)` works; `instanceof` does not), an
   * `AbortError` when it was cancelled, or `RunNotFoundError`.
   */
  result(): Promise<Output>;
  /** Every event of the run from its start, then live, ending after `run-end`. */
  events(): AsyncIterable<RunEvent>;
}

/**
 * {@link RunHandle} over Redis. Waiting never polls BullMQ: `result()` reads the run record
 * and, while the run is unfinished, blocks on the run's event stream (XREAD BLOCK on a
 * connection of its own, closed afterwards) until `run-end`.
 */
export class RedisRunHandle<Output = unknown> implements RunHandle<Output> {
  readonly id: string;
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #records: RedisRunRecords;

  constructor(options: { runId: string; redis: Redis; prefix: string; records: RedisRunRecords }) {
    this.id = options.runId;
    this.#redis = options.redis;
    this.#prefix = options.prefix;
    this.#records = options.records;
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

  events(): AsyncIterable<RunEvent> {
    return {
      [Symbol.asyncIterator]: () =>
        readRunEventStream({
          connection: this.#redis.duplicate(),
          key: runKeys(this.#prefix, this.id).events,
          isOver: async () => {
            const record = await this.#records.get(this.id);
            return record === undefined || isTerminalStatus(record.status);
          },
        }),
    };
  }

  async #record(): Promise<RunRecord> {
    const record = await this.#records.get(this.id);
    if (!record) throw new RunNotFoundError(this.id);
    return record;
  }
}

function settle<Output>(record: RunRecord): Output {
  if (record.status === 'succeeded') return record.output as Output;
  if (record.error) throw deserializeError(record.error);
  throw new Error(`Run "${record.runId}" ended with status ${record.status} and no error recorded.`);
}
