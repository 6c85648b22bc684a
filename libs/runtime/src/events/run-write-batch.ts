import type { Redis } from 'ioredis';
import { AttemptSupersededError } from '../errors/run-errors.js';
import { runKeys } from '../keys.js';
import { SETTLED } from '../shared/settled.js';
import { ATTEMPT_SUPERSEDED } from '../store/lua/attempt-fence.lua.js';
import { publishEventNotice } from './event-notice.js';
import { writeRunScript } from './lua/write-run-2.lua.js';

/**
 * How many events, and bytes of their text, a batch remembers having written (for the timeline,
 * {@link RunWriteBatch.written}); past either, it forgets them and the run's end reads its
 * stream back instead.
 */
const MAX_REMEMBERED_EVENTS = 256;
const MAX_REMEMBERED_BYTES = 64 * 1024;

/** Events a run wrote: their text and the stream id each was given, in stream order. */
export interface WrittenEvents {
  texts: string[];
  ids: string[];
}

/** What {@link RunWriteBatch.drain} hands over to the run's end. */
export interface DrainedWrites {
  /** Journal entries not written yet: position, entry JSON, position, entry JSON… */
  records: string[];
  /** Events not written yet (JSON), in emit order. */
  events: string[];
}

/** A journal entry waiting for its write; `settle` when the caller waits for it (a durable record). */
interface PendingRecord {
  position: string;
  text: string;
  settle?: { resolve: () => void; reject: (error: unknown) => void };
}

/**
 * The writes of one run attempt to its run, batched: journal entries and events made close
 * together go to Redis in one fenced script call (`write-run-2`) instead of one call each.
 *
 * - A durable record (`record(…, false)`) is sent after the microtasks of its tick, with every
 *   event and record waiting then, and its promise settles with that write.
 * - A deferred record (`record(…, true)`, a model turn's outcome) and events wait for the next
 *   write: the next turn of the event loop (`setImmediate`, so streaming readers stay current),
 *   a durable record, a {@link settle} (the next effect that must not run twice), or the run's
 *   end ({@link drain} into the finish script). Lost in a crash before then, the model turn is
 *   called again on replay; nothing written claims otherwise, as the events after it were lost too.
 *
 * Writes land in order (chained). A failed write of events is reported through `onError` and
 * never breaks the run (events are for observers); a failed write of records fails whoever
 * waits for them (a deferred one: every later {@link settle}). A superseded attempt's writes
 * are refused, reported once through `onSuperseded`.
 */
export class RunWriteBatch {
  readonly #redis: Redis;
  readonly #runId: string;
  readonly #keys: [record: string, journal: string, events: string];
  readonly #maxLength: number;
  readonly #attempt: string;
  readonly #onError: (error: unknown) => void;
  readonly #onSuperseded: () => void;
  #records: PendingRecord[] = [];
  #events: string[] = [];
  /** Deferred records not known to be written yet (buffered or in flight). */
  #unsettled = 0;
  /** Why deferred records were lost: every later settle throws it. */
  #lost: unknown;
  #writing: Promise<void> = SETTLED;
  /** Writes started and not done: none, and a write starts at once (no `.then` on the last). */
  #inFlight = 0;
  #tickScheduled = false;
  #immediateScheduled = false;
  /** Set by {@link hold}: events and deferred records wait for an explicit write. */
  #held = false;
  #superseded = false;
  /** What this batch wrote to the stream, while it knows all of it; `undefined` once it does not. */
  #written: WrittenEvents | undefined = { texts: [], ids: [] };
  #writtenBytes = 0;
  /** Events were handed over ({@link handOver}) and their ids are not back yet: {@link written} is unknown. */
  #awaitingIds = false;

  constructor(options: {
    redis: Redis;
    prefix: string;
    runId: string;
    /** The writing attempt's token (the attempt fence). @default none: not fenced */
    attempt?: string;
    /** How many events the stream keeps (approximately). */
    maxLength: number;
    /** A write of events failed. @default ignore */
    onError?: (error: unknown) => void;
    /** Called once when a write was refused: a newer attempt owns the run. @default ignore */
    onSuperseded?: () => void;
    /**
     * Events an earlier execution of the run wrote, known to this worker (it suspended the run,
     * `worker/suspended-run-events.ts`): remembered as if this batch had written them, so the
     * run's end can compact without reading the stream back (the finish script checks that the
     * stream holds exactly these and this batch's own). Copied. @default none
     */
    written?: WrittenEvents;
  }) {
    this.#redis = options.redis;
    this.#runId = options.runId;
    const keys = runKeys(options.prefix, options.runId);
    this.#keys = [keys.record, keys.journal, keys.events];
    this.#maxLength = options.maxLength;
    this.#attempt = options.attempt ?? '';
    this.#onError = options.onError ?? (() => {});
    this.#onSuperseded = options.onSuperseded ?? (() => {});
    if (options.written) this.#remember(options.written.texts, options.written.ids);
  }

  /** Whether a newer attempt owns the run (a write was refused). */
  get superseded(): boolean {
    return this.#superseded;
  }

  /** Queues an event (JSON) for the next write. */
  event(text: string): void {
    this.#events.push(text);
    this.#scheduleImmediate();
  }

  /**
   * Queues a journal entry (JSON) at `position`. Durable: resolves once written. Deferred:
   * resolves at once; written with the next write (see the class).
   * @throws AttemptSupersededError (durable) when a newer attempt owns the run
   */
  record(position: string, text: string, deferred: boolean): Promise<void> {
    if (deferred) {
      this.#unsettled += 1;
      this.#records.push({ position, text });
      this.#scheduleImmediate();
      return SETTLED;
    }
    return new Promise((resolve, reject) => {
      this.#records.push({ position, text, settle: { resolve, reject } });
      if (this.#tickScheduled) return;
      this.#tickScheduled = true;
      // After the microtasks of this tick, as ioredis' auto-pipelining flushes: steps settled by
      // one batch of replies are all in.
      process.nextTick(() => {
        this.#tickScheduled = false;
        void this.flush();
      });
    });
  }

  /**
   * Resolves when the deferred records made so far are in Redis (written now if they wait): call
   * it before an effect that must not run twice. Nothing to wait for most of the time.
   * @throws the reason they were lost (a failed write, AttemptSupersededError)
   */
  settle(): Promise<void> {
    // Nothing deferred and nothing lost (most steps): the shared settled promise, no async call.
    if (this.#unsettled === 0 && this.#lost === undefined) return SETTLED;
    return this.#settle();
  }

  async #settle(): Promise<void> {
    if (this.#unsettled > 0) {
      if (this.#records.length > 0) void this.flush();
      await this.#writing;
    }
    if (this.#lost !== undefined) throw this.#lost;
  }

  /** Writes everything queued; resolves once written (never rejects: failures are reported). */
  flush(): Promise<void> {
    const records = this.#records;
    const events = this.#events;
    this.#records = [];
    this.#events = [];
    if (records.length === 0 && events.length === 0) return this.#writing;
    // In order: after the write in flight, or at once when there is none.
    this.#inFlight += 1;
    this.#writing =
      this.#inFlight === 1
        ? this.#write(records, events)
        : this.#writing.then(() => this.#write(records, events));
    return this.#writing;
  }

  /**
   * From now on events and deferred records are written only by an explicit `flush`, `settle`
   * or `drain`: the run's execution is over and its owner writes what is left with the run's end
   * (one script instead of two).
   */
  hold(): void {
    this.#held = true;
  }

  /**
   * For the run's end: waits for the writes in flight, then hands over what is not written yet
   * and forgets it, for the caller to write in its own script (`finish-run-12`). Nothing when the
   * attempt was superseded (its writes are dropped).
   */
  drain(): Promise<DrainedWrites> {
    // Nothing in flight (the usual run's end): no promise to wait on.
    if (this.#inFlight === 0) return Promise.resolve(this.#drained());
    return this.#writing.then(() => this.#drained());
  }

  #drained(): DrainedWrites {
    const records = this.#records;
    const events = this.#events;
    this.#records = [];
    this.#events = [];
    this.#unsettled = 0;
    // A durable record's caller is not waiting by now (the execution is over): it rides along.
    for (const record of records) record.settle?.resolve();
    if (this.#superseded) return { records: [], events: [] };
    return { records: records.flatMap((record) => [record.position, record.text]), events };
  }

  /**
   * What is not written yet, for a script of the caller that writes it while the run goes on (its
   * suspension, `suspend-run-3`), then forgotten. A write in flight is not waited for: it was
   * sent on the same connection, so Redis runs it first (writes still queued behind it are
   * waited for). {@link written} learns the ids the caller's script gave the events through
   * `onEventsWritten`, after those of the write that was in flight, which its reply gave first
   * (a fan-out's `child-start` events, sent just before its suspension); when that write is not
   * done by then (or failed), it forgets, and the run's end reads the stream back. Nothing when
   * the attempt was superseded. Ends a {@link hold}: the writes of a next execution in this job go
   * on as before.
   */
  async handOver(): Promise<DrainedWrites & { onEventsWritten: (ids: string[]) => void }> {
    this.#held = false;
    // Writes chained behind the one in flight are not sent yet: wait for them (and it).
    if (this.#inFlight > 1) await this.#writing;
    const records = this.#records;
    const events = this.#events;
    this.#records = [];
    this.#events = [];
    // A durable record's caller is not waiting by now (every step of the execution is blocked).
    for (const record of records) {
      if (record.settle) record.settle.resolve();
      else this.#unsettled -= 1;
    }
    // Unknown until the caller's script gives the ids (never, when it wrote nothing).
    if (events.length > 0) this.#awaitingIds = true;
    if (this.#superseded) return { records: [], events: [], onEventsWritten: () => {} };
    return {
      records: records.flatMap((record) => [record.position, record.text]),
      events,
      onEventsWritten: (ids) => {
        if (events.length === 0) return;
        this.#awaitingIds = false;
        // A write still in flight would add its (earlier) ids after these: not known in order.
        if (this.#inFlight > 0) this.#written = undefined;
        else this.#remember(events, ids);
      },
    };
  }

  /**
   * Every event this batch wrote to the stream, with the ids the stream gave them, so the run's
   * end can encode its timeline without reading the stream back; `undefined` when it does not
   * know them all (a write failed or was refused, or there were too many to keep). Read it after
   * {@link drain}.
   */
  written(): WrittenEvents | undefined {
    return this.#awaitingIds ? undefined : this.#written;
  }

  #scheduleImmediate(): void {
    if (this.#immediateScheduled) return;
    this.#immediateScheduled = true;
    setImmediate(() => {
      this.#immediateScheduled = false;
      if (!this.#held) void this.flush();
    });
  }

  /**
   * One script call and its outcome, settled by one `.then` (never rejects: failures are
   * reported to whoever waits for the records, and `onError` for events).
   */
  #write(records: PendingRecord[], events: string[]): Promise<void> {
    if (this.#superseded) {
      this.#wrote(records, new AttemptSupersededError(this.#runId, 'a journal record'));
      return SETTLED;
    }
    const failed = (error: unknown): void => {
      // Maybe written, maybe not: the stream is the only one that knows now.
      this.#written = undefined;
      if (events.length > 0) this.#onError(error);
      this.#wrote(records, error);
    };
    let reply: Promise<unknown>;
    try {
      reply = this.#send(records, events);
    } catch (error) {
      reply = Promise.reject(error);
    }
    return reply.then((answer) => {
      let refused: unknown;
      try {
        refused = this.#replied(answer, events);
      } catch (error) {
        return failed(error);
      }
      this.#wrote(records, refused);
    }, failed);
  }

  /** Settles what waits for `records` (written when `failure` is `undefined`). */
  #wrote(records: PendingRecord[], failure: unknown): void {
    this.#inFlight -= 1;
    let deferred = 0;
    for (const record of records) if (record.settle === undefined) deferred += 1;
    this.#unsettled -= deferred;
    if (failure !== undefined && deferred > 0) this.#lost ??= failure;
    for (const { settle } of records) {
      if (!settle) continue;
      if (failure === undefined) settle.resolve();
      else settle.reject(failure);
    }
  }

  /** One script call (`write-run-2`). */
  #send(records: PendingRecord[], events: string[]): Promise<unknown> {
    const args: (string | number)[] = [this.#attempt, this.#maxLength, records.length];
    for (const { position, text } of records) args.push(position, text);
    args.push(...events);
    return writeRunScript.run(this.#redis, this.#keys, args);
  }

  /** Takes the script's reply; returns why the records were refused, if they were. */
  #replied(reply: unknown, events: string[]): unknown {
    if (Array.isArray(reply)) {
      if (events.length === 0) return undefined;
      publishEventNotice(this.#redis, this.#keys[2]);
      this.#remember(events, reply as string[]);
      return undefined;
    }
    this.#written = undefined;
    if (reply !== ATTEMPT_SUPERSEDED) return undefined;
    this.#superseded = true;
    this.#onSuperseded();
    return new AttemptSupersededError(this.#runId, 'a journal record');
  }

  #remember(texts: readonly string[], ids: readonly string[]): void {
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
}
