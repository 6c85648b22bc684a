/**
 * What one execution of a run shares across all its agent invocations: the services, the
 * journal as loaded at start (plus what this execution recorded), usage of live model turns,
 * and the memory writes still in flight.
 */
import type { TokenUsage } from '@flotilla/ir';
import { addUsage, emptyUsage } from '@flotilla/ir';
import type { RunEvent, RunEventInput } from '../events/run-event.js';
import type { JournalEntry, RunServices } from './run-services.js';

/** The shared state of one run execution; created by {@link executeRun}. */
export class RunState {
  readonly services: RunServices;
  /** Recorded entries by position: loaded at start, extended as this execution records. */
  readonly journal: Map<string, JournalEntry>;
  private totalUsage: TokenUsage = emptyUsage();
  private liveModelCalls = 0;
  private readonly pendingWrites = new Set<Promise<void>>();
  private writeFailure: unknown;

  constructor(services: RunServices, journal: Map<string, JournalEntry>) {
    this.services = services;
    this.journal = journal;
  }

  get runId(): string {
    return this.services.runId;
  }

  /** Usage summed over live model turns of this execution. */
  get usage(): TokenUsage {
    return this.totalUsage;
  }

  /** Live model calls of this execution (replayed turns do not count). */
  get modelCalls(): number {
    return this.liveModelCalls;
  }

  /** Counts one live model call and its usage. */
  addModelCall(usage: TokenUsage): void {
    this.liveModelCalls += 1;
    this.totalUsage = addUsage(this.totalUsage, usage);
  }

  /** Stamps `runId` and `at` on an event and hands it to the sink. */
  emit(event: RunEventInput): void {
    this.services.events.emit({ ...event, runId: this.runId, at: Date.now() } as RunEvent);
  }

  /** Records an entry in the durable journal and in this execution's view of it. */
  async record(position: string, entry: JournalEntry): Promise<void> {
    await this.services.journal.record(position, entry);
    if (!this.journal.has(position)) this.journal.set(position, entry);
  }

  /**
   * Tracks a write-through (memory) so durable steps can wait for it: a step is recorded only
   * after the memory it depends on is stored, so a replay never sees a step without its writes.
   */
  trackWrite(write: Promise<void>): void {
    const tracked = write.then(
      () => undefined,
      (error: unknown) => {
        this.writeFailure ??= error;
      },
    );
    this.pendingWrites.add(tracked);
    void tracked.finally(() => this.pendingWrites.delete(tracked));
  }

  /**
   * Waits for every pending write.
   * @throws the first write failure, so a lost memory write fails the step instead of being silent.
   */
  async flushWrites(): Promise<void> {
    while (this.pendingWrites.size > 0) await Promise.all(this.pendingWrites);
    if (this.writeFailure !== undefined) {
      const failure = this.writeFailure;
      this.writeFailure = undefined;
      throw failure;
    }
  }
}
