import { type Job, Worker } from 'bullmq';
import { setLongTimer } from '../shared/long-timer.js';

/**
 * How long this worker surely still holds each active job's BullMQ lock, and a call when that
 * time passes without a renewal (Redis paused or unreachable, or this process froze). The lock
 * is a lease: once it lapses another worker may take the job over, so the attempt must stop
 * before — the Lua fences refuse its writes afterwards anyway, but only stopping keeps a model
 * call or tool from running in two attempts at once.
 *
 * A lock set by a request sent at `sentAt` holds at least until `sentAt + lockDurationMs`
 * (Redis sets it after the request left; PX counts from then), whenever the reply arrives. A
 * margin before that, when no renewal is on its way (BullMQ's renewal timer ran late, or the
 * job was fetched by a request Redis answered late), the lease sends one itself; it lapses when
 * Redis answers that the lock was lost, or at the hard limit when no answer came.
 */
export class JobLeases {
  readonly #lockDurationMs: number;
  readonly #marginMs: number;
  readonly #held = new Map<string, Lease>();
  /** By queue name: each agent queue's locks are renewed by its own BullMQ Worker. */
  readonly #renewers = new Map<string, (jobId: string, token: string) => Promise<unknown>>();

  constructor(lockDurationMs: number) {
    this.#lockDurationMs = lockDurationMs;
    // Time for the attempt to stop before the lock can lapse; BullMQ renews every quarter of it.
    this.#marginMs = Math.min(1000, Math.floor(lockDurationMs / 5));
  }

  /**
   * How to renew one lock of the jobs of `queueName` now (a call that reports back through
   * `renewing` / `renewed`); without a queue name, of any queue that has no renewer of its own.
   */
  renewWith(renew: (jobId: string, token: string) => Promise<unknown>, queueName = ''): void {
    this.#renewers.set(queueName, renew);
  }

  /**
   * Watches the lock of `job` (held with `token`), taken by the request sent at
   * `job.processedOn` (BullMQ stamps the fetching request's time). `onLapse` is called once
   * when no renewal came in time. Returns the function that stops watching.
   */
  hold(job: Job, token: string | undefined, onLapse: () => void): () => void {
    const jobId = job.id ?? '';
    const lease: Lease = {
      ...{ until: 0, renewing: false, timer: undefined, onLapse, token: token ?? '' },
      queue: (job as { queueName?: string }).queueName ?? '',
    };
    this.#held.set(jobId, lease);
    this.#arm(jobId, lease, (job.processedOn ?? Date.now()) + this.#lockDurationMs);
    return () => this.release(jobId);
  }

  /** Renewals of the locks of `jobIds` were sent. */
  renewing(jobIds: readonly string[]): void {
    for (const jobId of jobIds) {
      const lease = this.#held.get(jobId);
      if (lease) lease.renewing = true;
    }
  }

  /** The renewals sent at `sentAt` came back: `failed` locks were lost, the others extended. */
  renewed(jobIds: readonly string[], failed: readonly string[], sentAt: number): void {
    for (const jobId of jobIds) {
      const lease = this.#held.get(jobId);
      if (!lease) continue;
      lease.renewing = false;
      if (failed.includes(jobId)) this.#lapse(jobId, lease);
      else this.#arm(jobId, lease, sentAt + this.#lockDurationMs);
    }
  }

  release(jobId: string): void {
    this.#held.get(jobId)?.timer?.clear();
    this.#held.delete(jobId);
  }

  #arm(jobId: string, lease: Lease, until: number): void {
    lease.timer?.clear();
    lease.until = until;
    lease.timer = setLongTimer(
      () => {
        if (!lease.renewing) {
          const renew = this.#renewers.get(lease.queue) ?? this.#renewers.get('');
          if (!renew) return this.#lapse(jobId, lease);
          // A failed call leaves `renewing` set: the hard limit below decides.
          renew(jobId, lease.token).catch(() => {});
        }
        // A renewal is on its way: wait for it, up to the time the lock may truly lapse.
        if (lease.renewing)
          lease.timer = setLongTimer(() => this.#lapse(jobId, lease), lease.until - Date.now());
      },
      until - this.#marginMs - Date.now(),
    );
  }

  #lapse(jobId: string, lease: Lease): void {
    lease.timer?.clear();
    this.#held.delete(jobId);
    lease.onLapse();
  }
}

interface Lease {
  /** Epoch ms until which the lock surely holds. */
  until: number;
  /** A renewal was sent and has not come back yet. */
  renewing: boolean;
  timer: { clear(): void } | undefined;
  onLapse: () => void;
  /** The job's lock token. */
  token: string;
  /** The job's queue name (whose Worker renews its lock). */
  queue: string;
}

/** A BullMQ worker that reports its lock renewals to `leases`. */
export class LeasedWorker extends Worker {
  #leases: JobLeases | undefined;

  /** Set right after construction (before any job is fetched). */
  reportRenewalsTo(leases: JobLeases): void {
    this.#leases = leases;
    leases.renewWith(
      (jobId, token) => this.extendJobLocks([jobId], [token], this.opts.lockDuration ?? 0),
      this.name,
    );
  }

  override async extendJobLocks(jobIds: string[], tokens: string[], duration: number): Promise<string[]> {
    const sentAt = Date.now();
    this.#leases?.renewing(jobIds);
    const failed = await super.extendJobLocks(jobIds, tokens, duration);
    this.#leases?.renewed(jobIds, failed, sentAt);
    return failed;
  }
}
