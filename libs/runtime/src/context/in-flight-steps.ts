/**
 * The durable operations of one run execution that are still in flight, and the moment the
 * execution can suspend: when every one of them waits on a pending child run (a child call
 * whose job was enqueued, or a tool / memo factory that awaits such a call). Nothing that
 * could still make progress is then running, so the worker can persist the run, move it to
 * waiting-children and give its slot back; a later execution replays it from the journal.
 */
import { frameSlot } from './async-frame.js';

/** One durable operation in flight; `blocked` once it waits on a pending child run. */
export interface InFlightStep {
  /** The tracker (one per run execution) the step belongs to. */
  readonly owner: InFlightSteps;
  /** The step this one runs inside (a child call inside a tool handler), in the same execution. */
  readonly parent: InFlightStep | undefined;
  /** The step's journal position, when it is a durable step (a patch marker write has none). */
  readonly position: string | undefined;
  blocked: boolean;
}

/**
 * The step the current async flow runs in: a slot of the process-wide async frame (every
 * enabled `AsyncLocalStorage` adds work to every promise created anywhere, `async-frame.ts`).
 */
const currentStep = frameSlot<InFlightStep>('step');

/** Tracks in-flight steps and resolves {@link InFlightSteps.allBlocked} when the run can suspend. */
export class InFlightSteps {
  readonly #steps = new Set<InFlightStep>();
  #checkScheduled = false;
  /** Called once every in-flight step is blocked; `undefined` once that happened. */
  #onAllBlocked: (() => void)[] | undefined = [];
  #allBlocked: Promise<void> | undefined;

  /** Resolves once every in-flight step is blocked (checked after pending callbacks ran). */
  get allBlocked(): Promise<void> {
    this.#allBlocked ??= new Promise((resolve) => this.whenAllBlocked(resolve));
    return this.#allBlocked;
  }

  /**
   * Calls `listener` once every in-flight step is blocked (at once when they already were): what
   * {@link allBlocked} does without a promise per execution (each pays the async-context hooks).
   */
  whenAllBlocked(listener: () => void): void {
    if (this.#onAllBlocked) this.#onAllBlocked.push(listener);
    else listener();
  }

  /**
   * Counts a new step; call it synchronously, before the step's first `await`.
   * @param position the step's journal position (durable steps), reported by {@link positions}
   */
  begin(position?: string): InFlightStep {
    const step: InFlightStep = { owner: this, parent: this.#currentOwnStep(), position, blocked: false };
    this.#steps.add(step);
    return step;
  }

  /**
   * The journal positions of the steps in flight, in the order they began. Once every step is
   * blocked (the run suspends) these are the positions the execution reached and is waiting at:
   * none has a journal entry yet (`patched()` must still count them as reached on the next
   * execution: `engine/journal-frontier.ts`).
   */
  positions(): string[] {
    const positions: string[] = [];
    for (const step of this.#steps) if (step.position !== undefined) positions.push(step.position);
    return positions;
  }

  /** Runs `work` with `step` as the current step, so nested steps and child calls know their owner. */
  run<T>(step: InFlightStep, work: () => T): T {
    return currentStep.run(step, work);
  }

  /** The step has settled. */
  end(step: InFlightStep): void {
    this.#steps.delete(step);
    this.#scheduleCheck();
  }

  /**
   * The current step (a child call) waits on a pending child run: it and every step that
   * contains it (a tool handler calling an agent) now wait on children.
   */
  blockCurrent(): void {
    for (let step = this.#currentOwnStep(); step; step = step.parent) step.blocked = true;
    this.#scheduleCheck();
  }

  /** The current step when it belongs to this execution (a run started inside another run's step is separate). */
  #currentOwnStep(): InFlightStep | undefined {
    const step = currentStep.get();
    return step?.owner === this ? step : undefined;
  }

  #everyStepBlocked(): boolean {
    if (this.#steps.size === 0) return false;
    for (const step of this.#steps) if (!step.blocked) return false;
    return true;
  }

  /**
   * Checks on the next turn of the event loop, after queued promise callbacks ran: the handler
   * may be about to start another step (the next call of a `Promise.all` fan-out, the code
   * after a memo), which must be enqueued before the run suspends.
   */
  #scheduleCheck(): void {
    if (this.#checkScheduled || !this.#everyStepBlocked()) return;
    this.#checkScheduled = true;
    setImmediate(() => {
      this.#checkScheduled = false;
      if (!this.#everyStepBlocked()) return;
      const listeners = this.#onAllBlocked;
      this.#onAllBlocked = undefined;
      for (const listener of listeners ?? []) listener();
    });
  }
}
