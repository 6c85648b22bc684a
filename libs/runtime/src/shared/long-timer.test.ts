import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_TIMER_MS, setLongTimer } from './long-timer.js';

const DAY_MS = 24 * 3600 * 1000;

describe('setLongTimer', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits a month instead of firing at once as a plain setTimeout past 2^31 − 1 ms would', () => {
    const fired = vi.fn();
    setLongTimer(fired, 30 * DAY_MS);
    vi.advanceTimersByTime(MAX_TIMER_MS);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(30 * DAY_MS - MAX_TIMER_MS - 1);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fired).toHaveBeenCalledTimes(1);
  });

  it('fires a short delay once, and never after clear()', () => {
    const fired = vi.fn();
    setLongTimer(fired, 50);
    vi.advanceTimersByTime(50);
    expect(fired).toHaveBeenCalledTimes(1);
    const cleared = vi.fn();
    const timer = setLongTimer(cleared, 40 * DAY_MS);
    vi.advanceTimersByTime(MAX_TIMER_MS + 1);
    timer.clear();
    vi.advanceTimersByTime(40 * DAY_MS);
    expect(cleared).not.toHaveBeenCalled();
  });
});
