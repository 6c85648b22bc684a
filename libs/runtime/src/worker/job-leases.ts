import { type Job, Worker } from 'bullmq';
import { setLongTimer } from '../shared/long-timer.js';

/**
 * How long this worker surely still holds each active job's BullMQ lock, and a call when that
 * time is about to pass without a renewal (Redis paused or unreachable, or this process froze).
 * The lock is a lease: once it lapses another worker may take the job over, so the attempt
 * must stop before — the Lua fences refuse its writes afterwards anyway, but only stopping
 * keeps a model call or tool from running in two attempts at once.
 *
 * A lock set by a request sent at `sentAt` holds at least until `sentAt + lockDurationMs`
 * (Redis sets it after the request left; PX counts from then), whenever the reply arrives.
 */
export class JobLeases {
  readonly #lockDurationMs: number;
  readonly #marginMs: number;
  readonly #held = new Map<string, { timer: { clear(): void }; onLapse: () => void }>();

  constructor(lockDurationMs: number) {
    this.#lockDurationMs = lockDurationMs;
    // Time for the attempt to stop before the lock can lapse; BullMQ renews at about half the lock.
    this.#marginMs = Math.min(1000, Math.floor(lockDurationMs / 5));
  }

  /**
   * Watches the lock of `job`, taken by the request sent at `job.processedOn` (BullMQ stamps
   * the fetching request's time). `onLapse` is called once when no renewal came in time.
   * Returns the function that stops watching.
   */
  hold(job: Job, onLapse: () => void): () => void {
    const jobId = job.id ?? '';
    this.#arm(jobId, (job.processedOn ?? Date.now()) + this.#lockDurationMs, onLapse);
    return () => this.release(jobId);
  }

  /** The locks of `jobIds` were extended by a request sent at `sentAt`. */
  renewed(jobIds: readonly string[], sentAt: number): void {
    for (const jobId of jobIds) {
      const held = this.#held.get(jobId);
      if (held) this.#arm(jobId, sentAt + this.#lockDurationMs, held.onLapse);
    }
  }

  release(jobId: string): void {
    this.#held.get(jobId)?.timer.clear();
    this.#held.delete(jobId);
  }

  #arm(jobId: string, until: number, onLapse: () => void): void {
    this.#held.get(jobId)?.timer.clear();
    const timer = setLongTimer(
      () => {
        this.#held.delete(jobId);
        onLapse();
      },
      until - this.#marginMs - Date.now(),
    );
    this.#held.set(jobId, { timer, onLapse });
  }
}

/** A BullMQ worker that reports every successful lock renewal to `leases`. */
export class LeasedWorker extends Worker {
  #leases: JobLeases | undefined;

  /** Set right after construction (before any job is fetched). */
  reportRenewalsTo(leases: JobLeases): void {
    this.#leases = leases;
  }

  override async extendJobLocks(jobIds: string[], tokens: string[], duration: number): Promise<string[]> {
    const sentAt = Date.now();
    const failed = await super.extendJobLocks(jobIds, tokens, duration);
    // A failed renewal changes nothing here: the lease then lapses at its time.
    this.#leases?.renewed(
      jobIds.filter((jobId) => !failed.includes(jobId)),
      sentAt,
    );
    return failed;
  }
}
