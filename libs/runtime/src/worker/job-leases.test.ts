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
    leases.hold(job('j1'), 't', onLapse);
    vi.advanceTimersByTime(3999);
    expect(onLapse).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onLapse).toHaveBeenCalledOnce();
  });

  it('counts a renewal from when its request was sent, and stops watching once released', () => {
    const leases = new JobLeases(5000);
    const onLapse = vi.fn();
    const release = leases.hold(job('j1'), 't', onLapse);
    vi.advanceTimersByTime(3000);
    leases.renewing(['j1']);
    leases.renewed(['j1'], [], Date.now() - 500);
    vi.advanceTimersByTime(3000);
    expect(onLapse).not.toHaveBeenCalled();
    vi.advanceTimersByTime(500);
    expect(onLapse).toHaveBeenCalledOnce();

    const other = vi.fn();
    leases.hold(job('j2'), 't', other)();
    release();
    vi.advanceTimersByTime(60_000);
    expect(other).not.toHaveBeenCalled();
  });

  it('waits for a renewal on its way up to the hard limit, and lapses at once when Redis says the lock was lost', () => {
    const leases = new JobLeases(5000);
    const onLapse = vi.fn();
    leases.hold(job('j1'), 't', onLapse);
    vi.advanceTimersByTime(3900);
    leases.renewing(['j1']);
    vi.advanceTimersByTime(1099);
    expect(onLapse).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onLapse).toHaveBeenCalledOnce();

    const lost = vi.fn();
    leases.hold(job('j2'), 't', lost);
    leases.renewing(['j2']);
    leases.renewed(['j2'], ['j2'], Date.now());
    expect(lost).toHaveBeenCalledOnce();
  });

  it('renews by itself when no renewal came by the margin, and keeps the lease while Redis extends the lock', async () => {
    const leases = new JobLeases(5000);
    const renewals: string[] = [];
    leases.renewWith(async (jobId) => {
      renewals.push(jobId);
      leases.renewing([jobId]);
      leases.renewed([jobId], [], Date.now());
    });
    const onLapse = vi.fn();
    leases.hold(job('j1'), 't', onLapse);
    await vi.advanceTimersByTimeAsync(4000);
    expect(renewals).toEqual(['j1']);
    await vi.advanceTimersByTimeAsync(4000);
    expect(renewals).toEqual(['j1', 'j1']);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(onLapse).not.toHaveBeenCalled();
  });

  it('watches every held lock with one timer: each lapses on time, whatever was held or released around it', () => {
    const leases = new JobLeases(5000);
    const first = vi.fn();
    const releaseFirst = leases.hold(job('j1'), 't', first);
    vi.advanceTimersByTime(1000);
    const second = vi.fn();
    leases.hold(job('j2'), 't', second);
    // Fetched by a request sent long ago: due before the others.
    const early = vi.fn();
    leases.hold({ id: 'j3', processedOn: Date.now() - 2000 } as unknown as Job, 't', early);
    expect(vi.getTimerCount()).toBe(1);
    releaseFirst();
    vi.advanceTimersByTime(1999);
    expect(early).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(early).toHaveBeenCalledOnce();
    vi.advanceTimersByTime(1999);
    expect(second).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(second).toHaveBeenCalledOnce();
    expect(first).not.toHaveBeenCalled();
  });

  it('leaves no timer once every lock was released (a closing worker is not kept up)', () => {
    const leases = new JobLeases(5000);
    const releases = ['j1', 'j2', 'j3'].map((id) => leases.hold(job(id), 't', vi.fn()));
    expect(vi.getTimerCount()).toBe(1);
    for (const release of releases) release();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('lapses at the hard limit when the renewer reports nothing back', () => {
    const leases = new JobLeases(5000);
    const asked: string[] = [];
    leases.renewWith(async (jobId) => {
      asked.push(jobId);
    });
    const onLapse = vi.fn();
    leases.hold(job('j1'), 't', onLapse);
    vi.advanceTimersByTime(4000);
    expect(asked).toEqual(['j1']);
    vi.advanceTimersByTime(999);
    expect(onLapse).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect([onLapse.mock.calls.length, vi.getTimerCount()]).toEqual([1, 0]);
  });
});
