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
  /**
   * One timer for every lease, due at the earliest {@link Lease.due} (or before): a timer per
   * job, set at its fetch and cleared at its end, cost a run ~1–2% of a worker's CPU (Node keeps
   * a timer list per distinct delay, made and dropped with it). A lease released before it is
   * due leaves the timer be; it fires, finds nothing due and is set for the next lease.
   */
  #timer: { clear(): void } | undefined;
  #timerDue = Number.POSITIVE_INFINITY;

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
    // One plain literal (not a spread into another): every lease has the same shape, so `#arm`'s
    // writes stay fast property stores.
    const lease: Lease = {
      until: 0,
      due: 0,
      hard: false,
      renewing: false,
      onLapse,
      token: token ?? '',
      queue: (job as { queueName?: string }).queueName ?? '',
    };
    this.#held.set(jobId, lease);
    this.#arm(lease, (job.processedOn ?? Date.now()) + this.#lockDurationMs);
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
      else this.#arm(lease, sentAt + this.#lockDurationMs);
    }
  }

  release(jobId: string): void {
    this.#held.delete(jobId);
    this.#stopWhenIdle();
  }

  /** The lock surely holds until `until`: checked a margin before. */
  #arm(lease: Lease, until: number): void {
    lease.until = until;
    lease.hard = false;
    lease.due = until - this.#marginMs;
    this.#wakeBy(lease.due);
  }

  /** The timer fires at `due` at the latest. */
  #wakeBy(due: number): void {
    if (this.#timer !== undefined && this.#timerDue <= due) return;
    this.#timer?.clear();
    this.#timerDue = due;
    this.#timer = setLongTimer(() => this.#fire(), due - Date.now());
  }

  #fire(): void {
    this.#timer = undefined;
    this.#timerDue = Number.POSITIVE_INFINITY;
    const now = Date.now();
    for (const [jobId, lease] of this.#held) if (lease.due <= now) this.#check(jobId, lease, now);
    let next = Number.POSITIVE_INFINITY;
    for (const lease of this.#held.values()) if (lease.due < next) next = lease.due;
    if (next !== Number.POSITIVE_INFINITY) this.#wakeBy(next);
  }

  /** A lease is due: renewed now when no renewal is on its way, lapsed at its hard limit. */
  #check(jobId: string, lease: Lease, now: number): void {
    if (lease.hard) {
      this.#lapse(jobId, lease);
      return;
    }
    if (!lease.renewing) {
      const renew = this.#renewers.get(lease.queue) ?? this.#renewers.get('');
      if (!renew) {
        this.#lapse(jobId, lease);
        return;
      }
      // A failed call leaves `renewing` set: the hard limit below decides.
      renew(jobId, lease.token).catch(() => {});
    }
    // A renewal is on its way (or the renewer said nothing): wait for it, up to the time the lock
    // may truly lapse. A renewal answered at once has moved `due` on already.
    if (lease.renewing || lease.due <= now) {
      lease.hard = true;
      lease.due = lease.until;
    }
  }

  #lapse(jobId: string, lease: Lease): void {
    if (this.#held.get(jobId) === lease) this.#held.delete(jobId);
    this.#stopWhenIdle();
    lease.onLapse();
  }

  /** No lease held: no timer keeps the process up (a worker closing has released them all). */
  #stopWhenIdle(): void {
    if (this.#held.size > 0 || this.#timer === undefined) return;
    this.#timer.clear();
    this.#timer = undefined;
    this.#timerDue = Number.POSITIVE_INFINITY;
  }
}

interface Lease {
  /** Epoch ms until which the lock surely holds. */
  until: number;
  /** Epoch ms of the lease's next check: a margin before `until`, or `until` itself once `hard`. */
  due: number;
  /** Past its margin with a renewal on its way: at `due` the lease lapses. */
  hard: boolean;
  /** A renewal was sent and has not come back yet. */
  renewing: boolean;
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
