import type { Redis } from 'ioredis';
import { DEFAULT_JSON_LIMITS, type JsonLimits } from '../json/json-bounds.js';
import { runKeys } from '../keys.js';
import { ATTEMPT_SUPERSEDED } from '../store/lua/attempt-fence.lua.js';
import { publishEventNotice } from './event-notice.js';
import { appendEventsScript } from './lua/append-events-3.lua.js';
import type { RunEvent, RunEventSink } from './run-event.js';
import { serializeRunEvent } from './serialize-run-event.js';

/** How many events a run's stream keeps (approximately: `XADD MAXLEN ~`). @default 10000 */
export const DEFAULT_EVENT_STREAM_MAX_LENGTH = 10_000;

/**
 * How many events, and bytes of their text, a sink remembers having written (for the timeline,
 * {@link RedisRunEventSink.written}); past either, it forgets them and the run's end reads its
 * stream back instead.
 */
const MAX_REMEMBERED_EVENTS = 256;
const MAX_REMEMBERED_BYTES = 64 * 1024;

/** Events a sink wrote: their text and the stream id each was given, in stream order. */
export interface WrittenEvents {
  texts: string[];
  ids: string[];
}

/** The stream field that holds an event's JSON. */
export const RUN_EVENT_FIELD = 'event';

/**
 * The {@link RunEventSink} of one run: events go to a capped Redis stream
 * (`runKeys(…).events`). `emit` never waits: events are buffered and written in one pipeline
 * on the next turn of the event loop, in emit order; `flush` resolves when everything emitted
 * so far is in Redis. A write failure is logged through `onError` and never breaks the run:
 * events are for observers, the journal is the source of truth. Nothing here rejects: an event
 * too deep or too large for `limits` is written with its payload replaced (see
 * `serialize-run-event.ts`), reported once through `onOmitted`. Events of a run that has ended are dropped
 * (`append-events-3`): its stream is compacted then; so are the events of an `attempt` a newer
 * one superseded (reported once through `onSuperseded`).
 */
export class RedisRunEventSink implements RunEventSink {
  readonly #redis: Redis;
  readonly #keys: [record: string, events: string];
  readonly #maxLength: number;
  readonly #onError: (error: unknown) => void;
  readonly #limits: JsonLimits;
  readonly #onOmitted: (info: { type: string; reason: string }) => void;
  readonly #attempt: string;
  readonly #onSuperseded: () => void;
  #superseded = false;
  #omittedReported = false;
  #buffer: RunEvent[] = [];
  #writing: Promise<void> = Promise.resolve();
  #scheduled = false;
  /** Set by {@link hold}: emitted events wait for an explicit `flush` or `drain`. */
  #held = false;
  /** What this sink wrote, while it knows all of it; `undefined` once it does not. */
  #written: WrittenEvents | undefined = { texts: [], ids: [] };
  #writtenBytes = 0;

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
    /** Called once when the events were refused: a newer attempt owns the run. @default ignore */
    onSuperseded?: () => void;
  }) {
    this.#redis = options.redis;
    const keys = runKeys(options.prefix, options.runId);
    this.#keys = [keys.record, keys.events];
    this.#maxLength = options.maxLength ?? DEFAULT_EVENT_STREAM_MAX_LENGTH;
    this.#onError = options.onError ?? (() => {});
    this.#limits = options.limits ?? DEFAULT_JSON_LIMITS;
    this.#onOmitted = options.onOmitted ?? (() => {});
    this.#attempt = options.attempt ?? '';
    this.#onSuperseded = options.onSuperseded ?? (() => {});
  }

  emit(event: RunEvent): void {
    this.#buffer.push(event);
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      if (this.#held) return;
      // flush never rejects (#write reports every failure); the catch keeps that true.
      this.flush().catch(this.#onError);
    });
  }

  flush(): Promise<void> {
    const batch = this.#buffer;
    this.#buffer = [];
    // Chained so batches land in emit order even when a flush is requested mid-write.
    this.#writing = this.#writing.then(() => this.#write(batch));
    return this.#writing;
  }

  /**
   * From now on emitted events are written only by an explicit `flush` or `drain`, not on the
   * next turn of the event loop: the run's execution is over and its owner writes what is left
   * with the run's end (one script instead of two).
   */
  hold(): void {
    this.#held = true;
  }

  /**
   * For the run's end: waits for the writes in flight, then hands over the events not written
   * yet, serialized, in emit order, and forgets them, for the caller to append in its own script
   * (`finish-run-6` writes them ahead of `run-end`, one round trip instead of two). Nothing when
   * the attempt was superseded (its events are dropped).
   */
  async drain(): Promise<string[]> {
    await this.#writing;
    const batch = this.#buffer;
    this.#buffer = [];
    if (this.#superseded) return [];
    return batch.map((event) => this.#serialize(event));
  }

  /**
   * Every event this sink wrote to the stream, with the ids the stream gave them, so the run's
   * end can encode its timeline without reading the stream back (`RedisRunRecords.finish`);
   * `undefined` when it does not know them all (a write failed or was refused, or there were too
   * many to keep). Read it after {@link drain}.
   */
  written(): WrittenEvents | undefined {
    return this.#written;
  }

  async #write(batch: RunEvent[]): Promise<void> {
    if (batch.length === 0 || this.#superseded) return;
    try {
      const events = batch.map((event) => this.#serialize(event));
      const args = [this.#maxLength, this.#attempt, ...events];
      const reply = await appendEventsScript.run(this.#redis, this.#keys, args);
      if (Array.isArray(reply)) {
        publishEventNotice(this.#redis, this.#keys[1] as string);
        return this.#remember(events, reply as string[]);
      }
      this.#written = undefined;
      if (reply !== ATTEMPT_SUPERSEDED) return;
      this.#superseded = true;
      this.#onSuperseded();
    } catch (error) {
      // Maybe written, maybe not: the stream is the only one that knows now.
      this.#written = undefined;
      this.#onError(error);
    }
  }

  #remember(texts: string[], ids: string[]): void {
    const written = this.#written;
    if (!written) return;
    for (const text of texts) this.#writtenBytes += text.length;
    if (
      ids.length !== texts.length ||
      written.ids.length + ids.length > MAX_REMEMBERED_EVENTS ||
      this.#writtenBytes > MAX_REMEMBERED_BYTES
    ) {
      this.#written = undefined;
      return;
    }
    written.texts.push(...texts);
    written.ids.push(...ids);
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
