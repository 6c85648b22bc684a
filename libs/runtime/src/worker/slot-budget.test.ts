import type { Worker } from 'bullmq';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SlotBudget } from './slot-budget.js';

/** A stand-in for a BullMQ Worker: the budget only sets its `concurrency`. */
const fakeWorker = () => ({ concurrency: 1 }) as unknown as Worker;

describe('SlotBudget', () => {
  it('gives at most its size in slots across its queues, and stops busy queues from fetching', () => {
    const budget = new SlotBudget(2);
    const [a, b] = [fakeWorker(), fakeWorker()];
    budget.add(a);
    budget.add(b);
    expect([a.concurrency, b.concurrency]).toEqual([2, 2]);
    expect(budget.take(a)).toBe(true);
    expect(budget.take(a)).toBe(true);
    // Full: a job b fetched (BullMQ's floor of 1) is refused, to be handed back.
    expect(budget.take(b)).toBe(false);
    expect(budget.active).toBe(2);
    expect([a.concurrency, b.concurrency]).toEqual([2, 1]);
    budget.release(a);
    expect(budget.take(b)).toBe(true);
    expect([a.concurrency, b.concurrency]).toEqual([1, 1]);
    budget.release(a);
    budget.release(b);
    expect(budget.active).toBe(0);
    expect([a.concurrency, b.concurrency]).toEqual([2, 2]);
  });

  describe('a job held for a slot', () => {
    afterEach(() => vi.useRealTimers());

    /** Two queues sharing one slot, which a run of queue `a` holds. */
    function oneSlotTakenByA() {
      const budget = new SlotBudget(1);
      const [a, b] = [fakeWorker(), fakeWorker()];
      budget.add(a);
      budget.add(b);
      expect(budget.take(a)).toBe(true);
      return { budget, a, b };
    }

    it('gets the next slot a run frees, before the pool does, and never more than the size', async () => {
      const { budget, a, b } = oneSlotTakenByA();
      const held = budget.takeWithin(b, 60_000);
      // Both queues fetch nothing more while the job waits (b's floor of 1 is its held job).
      expect([a.concurrency, b.concurrency]).toEqual([1, 1]);
      budget.release(a);
      await expect(held).resolves.toBe(true);
      expect(budget.active).toBe(1);
      // The freed slot went to the held job: none is left for a's next fetch.
      expect(budget.take(a)).toBe(false);
      budget.release(b);
      expect(budget.active).toBe(0);
    });

    it('are served longest-held first', async () => {
      const budget = new SlotBudget(1);
      const [a, b, c] = [fakeWorker(), fakeWorker(), fakeWorker()];
      for (const worker of [a, b, c]) budget.add(worker);
      expect(budget.take(a)).toBe(true);
      const order: string[] = [];
      const first = budget.takeWithin(b, 60_000).then((granted) => order.push(`b:${granted}`));
      const second = budget.takeWithin(c, 60_000).then((granted) => order.push(`c:${granted}`));
      budget.release(a);
      await first;
      budget.release(b);
      await second;
      expect(order).toEqual(['b:true', 'c:true']);
      expect(budget.active).toBe(1);
    });

    it('gives up after its time, leaving the count as it was', async () => {
      vi.useFakeTimers();
      const { budget, a, b } = oneSlotTakenByA();
      const held = budget.takeWithin(b, 250);
      await vi.advanceTimersByTimeAsync(250);
      await expect(held).resolves.toBe(false);
      // The slot a frees now returns to the pool: no hold is left to take it.
      budget.release(a);
      expect(budget.active).toBe(0);
      expect(budget.take(b)).toBe(true);
    });

    it('is not made with no time to hold (slotHoldMs 0): refused at once, as before holds', async () => {
      const { budget, b } = oneSlotTakenByA();
      await expect(budget.takeWithin(b, 0)).resolves.toBe(false);
      expect(budget.active).toBe(1);
    });

    it('is given up, and no job is held any more, once the worker closes', async () => {
      const { budget, a, b } = oneSlotTakenByA();
      const held = budget.takeWithin(b, 60_000);
      budget.abandonHeld();
      await expect(held).resolves.toBe(false);
      await expect(budget.takeWithin(b, 60_000)).resolves.toBe(false);
      budget.release(a);
      // A free slot is still taken at once.
      await expect(budget.takeWithin(b, 60_000)).resolves.toBe(true);
    });
  });
});
