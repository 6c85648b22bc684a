import type { Job } from 'bullmq';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { JobLeases } from './job-leases.js';

const job = (id: string) => ({ id, processedOn: Date.now() }) as unknown as Job;

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('JobLeases', () => {
  it('calls onLapse before the lock taken at the fetch can lapse when no renewal came', () => {
    const leases = new JobLeases(5000);
    const onLapse = vi.fn();
    leases.hold(job('j1'), onLapse);
    vi.advanceTimersByTime(3999);
    expect(onLapse).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onLapse).toHaveBeenCalledOnce();
  });

  it('counts a renewal from when its request was sent, and stops watching once released', () => {
    const leases = new JobLeases(5000);
    const onLapse = vi.fn();
    const release = leases.hold(job('j1'), onLapse);
    vi.advanceTimersByTime(3000);
    leases.renewed(['j1'], Date.now() - 500);
    vi.advanceTimersByTime(3000);
    expect(onLapse).not.toHaveBeenCalled();
    vi.advanceTimersByTime(500);
    expect(onLapse).toHaveBeenCalledOnce();

    const other = vi.fn();
    leases.hold(job('j2'), other)();
    release();
    vi.advanceTimersByTime(60_000);
    expect(other).not.toHaveBeenCalled();
  });
});
