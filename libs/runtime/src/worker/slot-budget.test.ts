import type { Worker } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { SlotBudget } from './slot-budget.js';

/** A stand-in for a BullMQ Worker: the budget only sets its `concurrency`. */
const fakeWorker = () => ({ concurrency: 1 }) as unknown as Worker;

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe('SlotBudget', () => {
  it('never runs more tasks than its size across its queues, and starts a waiting one when a slot frees', async () => {
    const budget = new SlotBudget(2);
    const [a, b] = [fakeWorker(), fakeWorker()];
    budget.add(a);
    budget.add(b);
    expect([a.concurrency, b.concurrency]).toEqual([2, 2]);
    const gates = [deferred(), deferred(), deferred()];
    const started: number[] = [];
    const runs = [a, a, b].map((worker, index) =>
      budget.run(worker, async () => {
        started.push(index);
        await gates[index]?.promise;
      }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1]);
    expect(budget.active).toBe(2);
    // Full: the busy queue fetches no more; the idle one keeps BullMQ's floor of 1.
    expect(a.concurrency).toBe(2);
    expect(b.concurrency).toBe(1);
    gates[0]?.resolve();
    await runs[0];
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1, 2]);
    expect(budget.active).toBe(2);
    gates[1]?.resolve();
    gates[2]?.resolve();
    await Promise.all(runs);
    expect(budget.active).toBe(0);
    expect([a.concurrency, b.concurrency]).toEqual([2, 2]);
  });
});
