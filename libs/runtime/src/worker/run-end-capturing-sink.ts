import type { RunEndEvent, RunEvent, RunEventSink } from '../events/run-event.js';

/**
 * Wraps the run's event sink for the worker: every event passes through except the engine's
 * `run-end`, which is held back and kept. The worker writes the one authoritative `run-end`
 * together with the run record (`finish-run-4`), so a run has exactly one `run-end` even
 * when a cancel or a crash ends it from elsewhere.
 */
export class RunEndCapturingSink implements RunEventSink {
  readonly #inner: RunEventSink;
  #runEnd: RunEndEvent | undefined;

  constructor(inner: RunEventSink) {
    this.#inner = inner;
  }

  /** The engine's `run-end`, when it emitted one (it carries usage even for failed runs). */
  get runEnd(): RunEndEvent | undefined {
    return this.#runEnd;
  }

  emit(event: RunEvent): void {
    if (event.type === 'run-end') this.#runEnd = event;
    else this.#inner.emit(event);
  }

  flush(): Promise<void> {
    return this.#inner.flush();
  }
}
