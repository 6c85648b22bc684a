/**
 * What one execution of a run shares across all its agent invocations: the services, the
 * journal as loaded at start (plus what this execution recorded), usage of live model turns,
 * and the memory writes still in flight.
 */

import type { TokenUsage } from '@flotilla/ir';
import { addUsage, emptyUsage } from '@flotilla/ir';
import { FanOutLimitExceededError } from '../errors/agent-errors.js';
import type { RunEvent, RunEventInput } from '../events/run-event.js';
import type { ParkedWait } from '../gate/waiting-for.js';
import { SETTLED } from '../shared/settled.js';
import { InMemoryTreeUsage, type TreeUsage } from '../usage/tree-usage.js';
import { InFlightSteps } from './in-flight-steps.js';
import type { JournalEntry, LoadedJournal, RecordOptions, RunServices } from './run-services.js';

/** Child calls one run may make when the services set no limit (`ChildRunner.maxChildrenPerRun`). */
export const DEFAULT_MAX_CHILDREN_PER_RUN = 1000;

const NO_PENDING_STEPS: ReadonlySet<string> = new Set();

/** The shared state of one run execution; created by {@link executeRun}. */
export class RunState {
  readonly services: RunServices;
  /** Recorded entries by position: loaded at start, extended as this execution records. */
  readonly journal: Map<string, JournalEntry>;
  /**
   * Positions an earlier execution suspended at (a pending child call, a wait) that have no
   * entry yet (`LoadedJournal.pendingSteps`): reached, so `patched()` counts them as recorded.
   */
  readonly pendingSteps: ReadonlySet<string>;
  private totalUsage: TokenUsage = emptyUsage();
  private liveModelCalls = 0;
  private readonly pendingWrites = new Set<Promise<void>>();
  private writeFailure: unknown;
  /** Durable operations in flight; the run suspends when all of them wait (on child runs, or `suspendUntil`). */
  readonly steps = new InFlightSteps();
  /** Run ids of the child runs this execution waits on. */
  readonly pendingChildren = new Set<string>();
  /** What else this execution waits on (`engine/suspend-until.ts`): approvals, signals, sleeps. */
  readonly pendingWaits: ParkedWait[] = [];
  private childCalls = 0;
  /** Where the tree's spend is counted: the services', else this run alone, in memory. */
  readonly treeUsage: TreeUsage;
  private suspendedAt: number | undefined;

  constructor(services: RunServices, journal: LoadedJournal) {
    this.services = services;
    this.journal = journal;
    this.pendingSteps = journal.pendingSteps ?? NO_PENDING_STEPS;
    this.treeUsage = services.treeUsage ?? new InMemoryTreeUsage(services.runId);
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

  /** Adds the usage of a finished child run (its whole subtree) when this execution records it. */
  addChildUsage(usage: TokenUsage, modelCalls: number): void {
    this.liveModelCalls += modelCalls;
    this.totalUsage = addUsage(this.totalUsage, usage);
  }

  /**
   * Counts one child call of the run (replayed calls too: a replay makes them all again).
   * @throws FanOutLimitExceededError past the limit of the run's child runner (default 1000)
   */
  countChildCall(position: string): void {
    const limit = this.services.children?.maxChildrenPerRun ?? DEFAULT_MAX_CHILDREN_PER_RUN;
    this.childCalls += 1;
    if (this.childCalls > limit) throw new FanOutLimitExceededError(limit, position);
  }

  /** Whether this execution was abandoned because every durable operation waits on a child run. */
  get suspended(): boolean {
    return this.suspendedAt !== undefined;
  }

  /**
   * Abandons this execution: it never records or emits again (its leftover promises never
   * settle; a later execution replays the run from the journal).
   */
  suspend(): void {
    this.suspendedAt ??= Date.now();
  }

  /**
   * Stamps `runId` and `at` on an event and hands it to the sink (nothing once suspended). The
   * event is stamped in place, not copied: every caller builds a fresh object for it, and a
   * `{ ...event, runId, at }` per event was a megamorphic object clone (issue 15). The fields
   * land where the copy put them (last, or in place when the caller set them).
   */
  emit(event: RunEventInput): void {
    if (this.suspended) return;
    const stamped = event as RunEvent;
    stamped.runId = this.runId;
    stamped.at = Date.now();
    this.services.events.emit(stamped);
  }

  /**
   * Records an entry in the durable journal and in this execution's view of it (`deferred`: see
   * `RunJournal.record`).
   */
  record(position: string, entry: JournalEntry, options?: RecordOptions): Promise<void> {
    // Not an async function; a record the journal took at once (a deferred one) costs no promise.
    let written: Promise<void>;
    try {
      written = this.services.journal.record(position, entry, options);
    } catch (error) {
      return Promise.reject(error);
    }
    if (written === SETTLED) {
      this.#remember(position, entry);
      return SETTLED;
    }
    return written.then(() => this.#remember(position, entry));
  }

  #remember(position: string, entry: JournalEntry): void {
    if (!this.journal.has(position)) this.journal.set(position, entry);
  }

  /**
   * Resolves once the deferred journal entries are stored (`RunJournal.settle`): before an effect
   * that must not run twice, so a replay never does it again after calling a model again.
   */
  settleRecords(): Promise<void> {
    return this.services.journal.settle?.() ?? SETTLED;
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
    // `tracked` never rejects (its failure is kept in writeFailure), so neither does this.
    void tracked.finally(() => this.pendingWrites.delete(tracked));
  }

  /**
   * Waits for every pending write.
   * @throws the first write failure, so a lost memory write fails the step instead of being silent.
   */
  flushWrites(): Promise<void> {
    // Most steps have no write in flight: no async function (its promises) for them.
    if (this.pendingWrites.size === 0 && this.writeFailure === undefined) return SETTLED;
    return this.#flushPendingWrites();
  }

  async #flushPendingWrites(): Promise<void> {
    while (this.pendingWrites.size > 0) await Promise.all(this.pendingWrites);
    if (this.writeFailure !== undefined) {
      const failure = this.writeFailure;
      this.writeFailure = undefined;
      throw failure;
    }
  }
}
