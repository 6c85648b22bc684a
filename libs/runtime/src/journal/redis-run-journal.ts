import type { Redis } from 'ioredis';
import type { JournalEntry, LoadedJournal, RunJournal } from '../context/run-services.js';
import { AttemptSupersededError } from '../errors/run-errors.js';
import { runKeys } from '../keys.js';
import { PENDING_STEPS_FIELD, parsePendingSteps } from '../runs/pending-steps.js';
import { ATTEMPT_SUPERSEDED } from '../store/lua/attempt-fence.lua.js';
import { parseJournalEntry } from './journal-entry-schema.js';
import { recordJournalScript } from './lua/record-journal-3.lua.js';

/**
 * The {@link RunJournal} of one run in Redis: one hash (`runKeys(…).journal`), field =
 * position, value = entry JSON. `record` writes a position once (`record-journal-3`), so when
 * a crashed worker's replacement and a late original race on a position, the first write wins
 * and both read the same outcome on the next replay; given an `attempt`, a superseded
 * attempt's records are refused. Records made in the same tick go in one script call (a
 * parent replayed after its ten children ended records their ten outcomes together). Entries are validated on load, with the positions the run
 * last suspended on (kept on its record: `runs/pending-steps.ts`) as `pendingSteps`.
 */
export class RedisRunJournal implements RunJournal {
  readonly #redis: Redis;
  readonly #runId: string;
  readonly #key: string;
  readonly #recordKey: string;
  readonly #attempt: string;
  /** Records of this tick not sent yet. */
  #batch: PendingRecord[] | undefined;
  /** What the run's start read for the first load (`start-run-3`), used once. */
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
  }) {
    this.#redis = options.redis;
    this.#runId = options.runId;
    const keys = runKeys(options.prefix, options.runId);
    this.#key = keys.journal;
    this.#recordKey = keys.record;
    this.#attempt = options.attempt ?? '';
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

  /** @throws AttemptSupersededError when a newer attempt owns the run */
  record(position: string, entry: JournalEntry): Promise<void> {
    const text = JSON.stringify(entry);
    return new Promise((resolve, reject) => {
      if (this.#batch === undefined) {
        this.#batch = [];
        // After the microtasks of this tick, as ioredis' auto-pipelining flushes: steps settled by
        // one batch of replies are all in.
        process.nextTick(() => this.#send());
      }
      this.#batch.push({ position, text, resolve, reject });
    });
  }

  async #send(): Promise<void> {
    const batch = this.#batch ?? [];
    this.#batch = undefined;
    const args = [this.#attempt];
    for (const { position, text } of batch) args.push(position, text);
    try {
      const reply = await recordJournalScript.run(this.#redis, [this.#recordKey, this.#key], args);
      const error =
        reply === ATTEMPT_SUPERSEDED
          ? new AttemptSupersededError(this.#runId, 'a journal record')
          : undefined;
      for (const pending of batch) {
        if (error) pending.reject(error);
        else pending.resolve();
      }
    } catch (error) {
      for (const pending of batch) pending.reject(error);
    }
  }
}

/** A record waiting for its tick's script call. */
interface PendingRecord {
  position: string;
  text: string;
  resolve: () => void;
  reject: (error: unknown) => void;
}
