import { errorGuard, FlotillaError } from '@flotilla/ir';

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
