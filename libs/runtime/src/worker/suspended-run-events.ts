import type { WrittenEvents } from '../events/redis-run-event-sink.js';

/** Most suspended runs whose events one worker keeps, and most bytes of event text in all. */
const MAX_KEPT_RUNS = 512;
const MAX_KEPT_BYTES = 4 * 1024 * 1024;

/**
 * The events each run wrote before it suspended on this worker (texts and stream ids, as its
 * write batch knew them), for the execution that resumes it here: its write batch starts out
 * knowing them, so the run's end compacts its stream in the finish script instead of reading the
 * stream back and compacting in a second script call (a fan-out's parent: one round trip, one
 * script call and the stream's reply per tree). Only a hint: the finish script compacts only when
 * the stream holds exactly the events the worker says (their count, none ever trimmed or written
 * by another, the last id), so an outdated entry (an execution elsewhere in between) costs the
 * read-back it would have cost anyway. A run resumed by another worker leaves its entry here
 * until it is pushed out: bounded by runs and by bytes, oldest out first.
 */
export class SuspendedRunEvents {
  readonly #kept = new Map<string, { written: WrittenEvents; bytes: number }>();
  #bytes = 0;

  /** Keeps what `runId` wrote before suspending (nothing when its batch did not know it all). */
  keep(runId: string, written: WrittenEvents | undefined): void {
    this.take(runId);
    if (!written || written.ids.length === 0) return;
    let bytes = 0;
    for (const text of written.texts) bytes += text.length;
    if (bytes > MAX_KEPT_BYTES) return;
    while (this.#kept.size >= MAX_KEPT_RUNS || this.#bytes + bytes > MAX_KEPT_BYTES) this.#dropOldest();
    this.#kept.set(runId, { written, bytes });
    this.#bytes += bytes;
  }

  /** What `runId` wrote before its last suspension here, forgotten as it is taken. */
  take(runId: string): WrittenEvents | undefined {
    const entry = this.#kept.get(runId);
    if (!entry) return undefined;
    this.#kept.delete(runId);
    this.#bytes -= entry.bytes;
    return entry.written;
  }

  /** How many runs' events are kept (for tests). */
  get size(): number {
    return this.#kept.size;
  }

  #dropOldest(): void {
    const oldest = this.#kept.keys().next();
    if (!oldest.done) this.take(oldest.value);
  }
}
