import { describe, expect, it } from 'vitest';
import { TickBatch } from './tick-batch.js';

describe('TickBatch', () => {
  it('sends the calls of one tick together and answers each its own result', async () => {
    const sent: string[][] = [];
    const batch = new TickBatch<string, string>(async (items) => {
      sent.push([...items]);
      return items.map((item) => item.toUpperCase());
    });
    const first = await Promise.all(['a', 'b', 'c'].map((item) => batch.add(item)));
    const later = await batch.add('d');
    expect(first).toEqual(['A', 'B', 'C']);
    expect(later).toBe('D');
    expect(sent).toEqual([['a', 'b', 'c'], ['d']]);
  });

  it('takes in calls made by continuations of the same tick', async () => {
    const sent: number[][] = [];
    const batch = new TickBatch<number, number>(async (items) => {
      sent.push([...items]);
      return items;
    });
    // As a fan-out's children settle: each call comes a few awaits after the last.
    const settle = async (n: number) => {
      for (let hop = 0; hop < n; hop++) await Promise.resolve();
      return batch.add(n);
    };
    expect(await Promise.all([0, 1, 2, 3].map(settle))).toEqual([0, 1, 2, 3]);
    expect(sent).toEqual([[0, 1, 2, 3]]);
  });

  it("rejects every call of a batch whose send failed, and sends the next tick's calls anew", async () => {
    let fail = true;
    const batch = new TickBatch<string, string>(async (items) => {
      if (fail) throw new Error('down');
      return [...items];
    });
    const failed = await Promise.allSettled([batch.add('a'), batch.add('b')]);
    expect(failed.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await batch.add('c')).toBe('c');
  });
});
