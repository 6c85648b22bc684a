import type { Redis } from 'ioredis';
import { DEFAULT_JSON_LIMITS, type JsonLimits } from '../json/json-bounds.js';
import type { RunEvent, RunEventSink } from './run-event.js';
import { RunWriteBatch, type WrittenEvents } from './run-write-batch.js';
import { serializeRunEvent } from './serialize-run-event.js';

export type { WrittenEvents } from './run-write-batch.js';

/** How many events a run's stream keeps (approximately: `XADD MAXLEN ~`). @default 10000 */
export const DEFAULT_EVENT_STREAM_MAX_LENGTH = 10_000;

/** The stream field that holds an event's JSON. */
export const RUN_EVENT_FIELD = 'event';

/**
 * The {@link RunEventSink} of one run: events go to a capped Redis stream
 * (`runKeys(…).events`) through the run's {@link RunWriteBatch}, with the journal records made
 * beside them. `emit` never waits: events are serialized and written on the next turn of the
 * event loop (or sooner, with a journal record), in emit order; `flush` resolves when everything
 * emitted so far is in Redis. A write failure is logged through `onError` and never breaks the
 * run: events are for observers, the journal is the source of truth. Nothing here rejects: an
 * event too deep or too large for `limits` is written with its payload replaced (see
 * `serialize-run-event.ts`), reported once through `onOmitted`. Events of a run that has ended
 * are dropped (`write-run-2`): its stream is compacted then; so are the events of an `attempt`
 * a newer one superseded (reported once through `onSuperseded`).
 */
export class RedisRunEventSink implements RunEventSink {
  /** The run's writes, shared with its journal (`RedisRunJournal`'s `batch`). */
  readonly batch: RunWriteBatch;
  readonly #limits: JsonLimits;
  readonly #onOmitted: (info: { type: string; reason: string }) => void;
  #omittedReported = false;

  constructor(options: {
    redis: Redis;
    prefix: string;
    runId: string;
    /** @default DEFAULT_EVENT_STREAM_MAX_LENGTH */
    maxLength?: number;
    /** @default ignore */
    onError?: (error: unknown) => void;
    /** Bounds of the values an event carries. @default DEFAULT_JSON_LIMITS */
    limits?: JsonLimits;
    /** Called once per sink when an event's payload had to be left out. @default ignore */
    onOmitted?: (info: { type: string; reason: string }) => void;
    /** The writing attempt's token (the attempt fence). @default none: not fenced */
    attempt?: string;
    /** Called once when the writes were refused: a newer attempt owns the run. @default ignore */
    onSuperseded?: () => void;
    /** Events an earlier execution wrote (see the batch's option). @default none */
    written?: WrittenEvents | undefined;
  }) {
    this.batch = new RunWriteBatch({
      redis: options.redis,
      prefix: options.prefix,
      runId: options.runId,
      maxLength: options.maxLength ?? DEFAULT_EVENT_STREAM_MAX_LENGTH,
      ...(options.attempt !== undefined && { attempt: options.attempt }),
      ...(options.onError && { onError: options.onError }),
      ...(options.onSuperseded && { onSuperseded: options.onSuperseded }),
      ...(options.written && { written: options.written }),
    });
    this.#limits = options.limits ?? DEFAULT_JSON_LIMITS;
    this.#onOmitted = options.onOmitted ?? (() => {});
  }

  emit(event: RunEvent): void {
    // Dropped once superseded: the newer attempt tells the run's story.
    if (this.batch.superseded) return;
    this.batch.event(this.#serialize(event));
  }

  flush(): Promise<void> {
    return this.batch.flush();
  }

  /** See {@link RunWriteBatch.hold}. */
  hold(): void {
    this.batch.hold();
  }

  /**
   * For the run's end: the events (and journal records) not written yet, in order, for the
   * finish script to write ahead of `run-end` (see {@link RunWriteBatch.drain}).
   */
  drain(): ReturnType<RunWriteBatch['drain']> {
    return this.batch.drain();
  }

  /** See {@link RunWriteBatch.written}. */
  written(): WrittenEvents | undefined {
    return this.batch.written();
  }

  #serialize(event: RunEvent): string {
    const { text, omitted } = serializeRunEvent(event, this.#limits);
    if (omitted !== undefined && !this.#omittedReported) {
      this.#omittedReported = true;
      this.#onOmitted({ type: event.type, reason: omitted });
    }
    return text;
  }
}
