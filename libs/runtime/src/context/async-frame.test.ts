import { describe, expect, it } from 'vitest';
import { frameSlot } from './async-frame.js';

describe('frameSlot', () => {
  it('keeps the other slots inside a run of one slot, and restores the frame after it', async () => {
    const tool = frameSlot<string>('tool');
    const usage = frameSlot<{ n: number }>('usage');
    const capture = { n: 1 };
    expect(tool.get()).toBeUndefined();
    const seen = await tool.run('tool:a:0', () =>
      usage.run(capture, async () => {
        await Promise.resolve();
        const inner = tool.run('tool:b:0', async () => {
          await new Promise((resolve) => setImmediate(resolve));
          return [tool.get(), usage.get()];
        });
        return { inner: await inner, outer: [tool.get(), usage.get()] };
      }),
    );
    expect(seen).toEqual({ inner: ['tool:b:0', capture], outer: ['tool:a:0', capture] });
    expect(tool.get()).toBeUndefined();
    expect(usage.get()).toBeUndefined();
  });

  it('gives concurrent flows their own values', async () => {
    const step = frameSlot<number>('step');
    const read = (value: number) =>
      step.run(value, async () => {
        await new Promise((resolve) => setTimeout(resolve, 3 - value));
        return step.get();
      });
    expect(await Promise.all([read(1), read(2), read(3)])).toEqual([1, 2, 3]);
  });

  it('shares one frame between two slot handles of the same name', () => {
    const a = frameSlot<string>('agent');
    const b = frameSlot<string>('agent');
    expect(a.run('x', () => b.get())).toBe('x');
  });
});
