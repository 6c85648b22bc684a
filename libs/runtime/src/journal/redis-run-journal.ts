import type { Redis } from 'ioredis';
import type { JournalEntry, LoadedJournal, RecordOptions, RunJournal } from '../context/run-services.js';
import { DEFAULT_EVENT_STREAM_MAX_LENGTH } from '../events/redis-run-event-sink.js';
import { RunWriteBatch } from '../events/run-write-batch.js';
import { runKeys } from '../keys.js';
import { PENDING_STEPS_FIELD, parsePendingSteps } from '../runs/pending-steps.js';
import { parseJournalEntry } from './journal-entry-schema.js';

/**
 * The {@link RunJournal} of one run in Redis: one hash (`runKeys(…).journal`), field =
 * position, value = entry JSON. `record` writes a position once (`write-run-2`), so when
 * a crashed worker's replacement and a late original race on a position, the first write wins
 * and both read the same outcome on the next replay; given an `attempt`, a superseded
 * attempt's records are refused. Records go through the run's {@link RunWriteBatch} (the one
 * of its event sink on a worker): made in the same tick, they go in one script call with the
 * events waiting (a parent replayed after its ten children ended records their ten outcomes
 * together); a deferred record (a model turn's) waits for the run's next write. Entries are
 * validated on load, with the positions the run last suspended on (kept on its record:
 * `runs/pending-steps.ts`) as `pendingSteps`.
 */
export class RedisRunJournal implements RunJournal {
  readonly #redis: Redis;
  readonly #runId: string;
  readonly #key: string;
  readonly #recordKey: string;
  readonly #batch: RunWriteBatch;
  /** What the run's start read for the first load (`start-run-5`), used once. */
  #preloaded: { fields: Record<string, string>; pendingSteps: string | null } | undefined;

  constructor(options: {
    redis: Redis;
    prefix: string;
    runId: string;
    /** The writing attempt's token (the attempt fence). @default none: not fenced */
    attempt?: string;
    /**
     * The journal and pending steps as the attempt's start read them after its fence
     * (`RunStart.preloaded`): the first load parses them instead of reading. @default none
     */
    preloaded?: { fields: Record<string, string>; pendingSteps: string | null } | undefined;
    /** The run's writes, shared with its event sink (`RedisRunEventSink.batch`). @default its own */
    batch?: RunWriteBatch;
  }) {
    this.#redis = options.redis;
    this.#runId = options.runId;
    const keys = runKeys(options.prefix, options.runId);
    this.#key = keys.journal;
    this.#recordKey = keys.record;
    this.#batch =
      options.batch ??
      new RunWriteBatch({
        redis: options.redis,
        prefix: options.prefix,
        runId: options.runId,
        maxLength: DEFAULT_EVENT_STREAM_MAX_LENGTH,
        ...(options.attempt !== undefined && { attempt: options.attempt }),
      });
    this.#preloaded = options.preloaded;
  }

  /** @throws JournalCorruptedError when an entry (or the pending steps) does not parse */
  async load(): Promise<LoadedJournal> {
    const preloaded = this.#preloaded;
    this.#preloaded = undefined;
    // Sent together (one round trip); the pending steps live on the record (`pending-steps.ts`).
    const [fields, pending] = preloaded
      ? [preloaded.fields, preloaded.pendingSteps]
      : await Promise.all([
          this.#redis.hgetall(this.#key),
          this.#redis.hget(this.#recordKey, PENDING_STEPS_FIELD),
        ]);
    const journal = new Map<string, JournalEntry>();
    for (const [position, text] of Object.entries(fields))
      journal.set(position, parseJournalEntry(this.#runId, position, text));
    const pendingSteps = parsePendingSteps(this.#runId, pending);
    return pendingSteps ? Object.assign(journal, { pendingSteps }) : journal;
  }

  /**
   * Deferred (`options.deferred`): resolves at once, the entry rides with the run's next write
   * (see {@link RunWriteBatch}); {@link settle} before an effect that must not run twice.
   * @throws AttemptSupersededError when a newer attempt owns the run
   */
  record(position: string, entry: JournalEntry, options?: RecordOptions): Promise<void> {
    return this.#batch.record(position, options?.text ?? JSON.stringify(entry), options?.deferred === true);
  }

  /**
   * Resolves once every deferred record is in Redis.
   * @throws why one was lost (a failed write, AttemptSupersededError)
   */
  settle(): Promise<void> {
    return this.#batch.settle();
  }
}
