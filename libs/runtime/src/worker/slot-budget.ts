import type { Worker } from 'bullmq';

/**
 * One worker's concurrency shared by the BullMQ Workers of its agent queues (one per agent).
 * BullMQ fetches while a Worker's own count is under its `concurrency`, so after every start
 * and end each Worker's concurrency is set to what it runs plus the slots left free: a busy
 * worker stops fetching from every queue at once. BullMQ's floor is 1, so an idle queue may
 * still fetch one job when the budget is used up; {@link SlotBudget.take} then refuses and the
 * job is handed back (`create-worker.ts`) for any worker with a free slot — it never waits here,
 * holding a job another worker could run (or that the run holding the slot waits for).
 */
export class SlotBudget {
  readonly size: number;
  readonly #workers = new Map<Worker, number>();
  #used = 0;

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

  /** Gives back a slot {@link SlotBudget.take} gave for `worker`. */
  release(worker: Worker): void {
    this.#used = Math.max(0, this.#used - 1);
    this.#workers.set(worker, Math.max(0, (this.#workers.get(worker) ?? 1) - 1));
    this.#rebalance();
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
