import type { Worker } from 'bullmq';
import { describe, expect, it } from 'vitest';
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
});
