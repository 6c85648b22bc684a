import type { RunEvent, RunEventSink } from '../events/run-event.js';

/**
 * A {@link RunEventSink} that keeps every event in order and optionally forwards each one to
 * a listener (embedded mode, tests). A throwing listener is ignored: events never break a run.
 */
export class CollectingEventSink implements RunEventSink {
  readonly events: RunEvent[] = [];
  private readonly listener: ((event: RunEvent) => void) | undefined;

  constructor(listener?: (event: RunEvent) => void) {
    this.listener = listener;
  }

  emit(event: RunEvent): void {
    this.events.push(event);
    try {
      this.listener?.(event);
    } catch {
      // A listener's failure must not change the run's outcome.
    }
  }

  async flush(): Promise<void> {}
}
