import { errorGuard, FlotillaError } from '@flotilla/ir';

/**
 * A child run called a resource exposed by an ancestor on another worker, and the owner can no
 * longer serve it: the owner worker stopped answering (its heartbeat key expired: crashed,
 * killed or shut down), or the owner's registry no longer holds the instance (the owning run
 * ended, or its suspended lease expired).
 *
 * The child fails with it. A parent's journal never records this failure as the child's final
 * outcome: the parent replays on a live worker, recreates and re-exposes the resource, and
 * runs the child again under a new attempt.
 */
export class ResourceOwnerGoneError extends FlotillaError {
  static override readonly errorName = 'ResourceOwnerGoneError';
  static override readonly is = errorGuard(this);
  /** The resource key, e.g. `mcp:filesystem`. */
  readonly key: string;
  /** The worker that owned the instance. */
  readonly ownerWorkerId: string;
  /** The run that exposed it. */
  readonly ownerRunId: string;
  /** `worker-gone`: no heartbeat; `instance-released`: the worker lives but no longer holds it. */
  readonly reason: 'worker-gone' | 'instance-released';

  constructor(
    target: { key: string; ownerWorkerId: string; ownerRunId: string },
    reason: 'worker-gone' | 'instance-released',
  ) {
    const what =
      reason === 'worker-gone'
        ? `its owner worker ${target.ownerWorkerId} is gone (no heartbeat)`
        : `worker ${target.ownerWorkerId} no longer holds it (run ${target.ownerRunId} ended or its lease expired)`;
    super(
      `Resource "${target.key}" exposed by run ${target.ownerRunId} cannot be reached: ${what}. ` +
        'The parent run recovers by replaying on a live worker, which recreates the resource and runs this child again.',
    );
    this.key = target.key;
    this.ownerWorkerId = target.ownerWorkerId;
    this.ownerRunId = target.ownerRunId;
    this.reason = reason;
  }
}

/**
 * A broker call to a resource on another worker got no reply in time while the owner worker
 * still looked alive (its heartbeat was present). The call may still run on the owner.
 */
export class ResourceCallTimeoutError extends FlotillaError {
  static override readonly errorName = 'ResourceCallTimeoutError';
  static override readonly is = errorGuard(this);
  readonly key: string;
  readonly method: string;
  readonly timeoutMs: number;

  constructor(key: string, method: string, timeoutMs: number) {
    super(
      `Resource "${key}": ${method}() got no reply from the owner worker within ${timeoutMs} ms. ` +
        'Raise `resourceBroker.callTimeoutMs` in createWorker for slow methods, or check that the owner worker is not overloaded.',
    );
    this.key = key;
    this.method = method;
    this.timeoutMs = timeoutMs;
  }
}

/** A resource was asked of a worker's registry after the worker began shutting down. */
export class ResourceRegistryClosedError extends FlotillaError {
  static override readonly errorName = 'ResourceRegistryClosedError';
  static override readonly is = errorGuard(this);
  readonly key: string;

  constructor(key: string) {
    super(
      `Resource "${key}" cannot be created: this worker's resource registry is closed (the worker is shutting down). ` +
        'The run is taken over by another worker.',
    );
    this.key = key;
  }
}
