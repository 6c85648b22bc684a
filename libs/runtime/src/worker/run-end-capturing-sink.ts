import type { RedisRunEventSink, WrittenEvents } from '../events/redis-run-event-sink.js';
import type { RunEndEvent, RunEvent, RunEventSink } from '../events/run-event.js';
import type { DrainedWrites, RunWriteBatch } from '../events/run-write-batch.js';
import { SETTLED } from '../shared/settled.js';

/**
 * Wraps the run's event sink for the worker: every event passes through except the engine's
 * `run-end`, which is held back and kept. The worker writes the one authoritative `run-end`
 * together with the run record (`finish-run-12`), so a run has exactly one `run-end` even
 * when a cancel or a crash ends it from elsewhere. Once the engine's `run-end` is in, the events
 * still buffered wait for the worker (`write` before a retry, `drain` into the finish script):
 * the engine's own closing `flush` writes nothing then, which saves the run a script call and a
 * round trip. So do the events of an execution that suspended (`run-suspended` last): the
 * worker hands them to the suspension's script (`suspend-run-3`).
 */
export class RunEndCapturingSink implements RunEventSink {
  readonly #inner: RedisRunEventSink;
  #runEnd: RunEndEvent | undefined;
  /** The last event was `run-suspended`: the execution is over, the worker suspends the run. */
  #suspending = false;

  constructor(inner: RedisRunEventSink) {
    this.#inner = inner;
  }

  /** The run's writes, shared with its journal. */
  get batch(): RunWriteBatch {
    return this.#inner.batch;
  }

  /** The engine's `run-end`, when it emitted one (it carries usage even for failed runs). */
  get runEnd(): RunEndEvent | undefined {
    return this.#runEnd;
  }

  emit(event: RunEvent): void {
    this.#suspending = event.type === 'run-suspended';
    if (event.type === 'run-end') {
      this.#runEnd = event;
      this.#inner.hold();
    } else {
      this.#inner.emit(event);
      // The suspension's script writes it (`RunWriteBatch.handOver`), which ends the hold.
      if (this.#suspending) this.#inner.hold();
    }
  }

  /** The engine's flush: left to the worker once the execution is over (see the class). */
  flush(): Promise<void> {
    return this.#runEnd || this.#suspending ? SETTLED : this.#inner.flush();
  }

  /** Writes every event emitted (and record made) so far (before a suspension, a retry or a hand-back). */
  write(): Promise<void> {
    return this.#inner.flush();
  }

  /** The events and records not written yet, for the finish script (see {@link RedisRunEventSink.drain}). */
  drain(): Promise<DrainedWrites> {
    return this.#inner.drain();
  }

  /** The events written so far with their stream ids (see {@link RedisRunEventSink.written}). */
  written(): WrittenEvents | undefined {
    return this.#inner.written();
  }
}
