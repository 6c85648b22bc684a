import type { Worker } from 'bullmq';

/**
 * One worker's concurrency shared by the BullMQ Workers of its agent queues (one per agent).
 * BullMQ fetches while a Worker's own count is under its `concurrency`, so after every start
 * and end each Worker's concurrency is set to what it runs plus the slots left free: a busy
 * worker stops fetching from every queue at once. BullMQ's floor is 1, so an idle queue may
 * still fetch one job when the budget is used up (its blocking fetch was already waiting);
 * {@link SlotBudget.takeWithin} then holds that job for the next slot a run's end frees, for a
 * bounded time, after which it is handed back (`create-worker.ts`) for any worker with a free
 * slot. A slot freed while jobs are held goes to the one held longest, never back to the pool:
 * the count of runs never exceeds the size.
 */
export class SlotBudget {
  readonly size: number;
  readonly #workers = new Map<Worker, number>();
  /** Jobs held for a slot, longest first: each is granted (true) or gives up (false) once. */
  readonly #held: { worker: Worker; grant: (granted: boolean) => void }[] = [];
  #used = 0;
  /** Set by {@link SlotBudget.abandonHeld}: no job is held any more (the worker is closing). */
  #holding = true;

  constructor(size: number) {
    this.size = size;
  }

  /** Runs executing now. */
  get active(): number {
    return this.#used;
  }

  /** Registers a BullMQ Worker whose jobs share the budget. */
  add(worker: Worker): void {
    this.#workers.set(worker, 0);
    this.#rebalance();
  }

  /** Takes a slot for a job of `worker`; `false` when every slot is in use. */
  take(worker: Worker): boolean {
    if (this.#used >= this.size) return false;
    this.#used++;
    this.#workers.set(worker, (this.#workers.get(worker) ?? 0) + 1);
    this.#rebalance();
    return true;
  }

  /**
   * Takes a slot for a job of `worker` now, or the first one freed within `ms`: `false` when
   * none was (at once for `ms` 0), or once {@link SlotBudget.abandonHeld} was called.
   */
  takeWithin(worker: Worker, ms: number): Promise<boolean> {
    if (this.take(worker)) return Promise.resolve(true);
    if (!this.#holding || ms <= 0) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const hold = {
        worker,
        grant: (granted: boolean) => {
          clearTimeout(timer);
          resolve(granted);
        },
      };
      const timer = setTimeout(() => {
        const index = this.#held.indexOf(hold);
        if (index >= 0) this.#held.splice(index, 1);
        resolve(false);
      }, ms);
      this.#held.push(hold);
    });
  }

  /** Gives back a slot {@link SlotBudget.take} gave for `worker`: to the job held longest, if any. */
  release(worker: Worker): void {
    this.#workers.set(worker, Math.max(0, (this.#workers.get(worker) ?? 1) - 1));
    const hold = this.#held.shift();
    if (hold) {
      // The slot changes hands: `#used` stays, the holder's queue counts one run more.
      this.#workers.set(hold.worker, (this.#workers.get(hold.worker) ?? 0) + 1);
      hold.grant(true);
    } else {
      this.#used = Math.max(0, this.#used - 1);
    }
    this.#rebalance();
  }

  /** Ends every hold without a slot, and holds no job from now on (the worker is closing). */
  abandonHeld(): void {
    this.#holding = false;
    for (const hold of this.#held.splice(0)) hold.grant(false);
  }

  #rebalance(): void {
    const free = Math.max(0, this.size - this.#used);
    for (const [worker, count] of this.#workers) {
      const concurrency = Math.max(1, count + free);
      const raised = concurrency > worker.concurrency;
      worker.concurrency = concurrency;
      if (raised) wakeFetching(worker);
    }
  }
}

/**
 * BullMQ's main loop, once a Worker runs as many jobs as its concurrency, waits for one of them
 * to end before it looks at `concurrency` again: raised while a long run executes, the new
 * slots would stay unused until then. An already-settled entry in the loop's queue makes it look
 * now. `mainLoopQueue` is BullMQ's (6.x) internal; without it the slots are used at the next
 * job end, as before (`test/trees/tree-cancel.test.ts` fails then).
 */
function wakeFetching(worker: Worker): void {
  const loop = (worker as unknown as { mainLoopQueue?: { add?: (promise: Promise<undefined>) => void } })
    .mainLoopQueue;
  if (typeof loop?.add === 'function') loop.add(Promise.resolve(undefined));
}
