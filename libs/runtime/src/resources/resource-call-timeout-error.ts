/**
 * A broker call to a resource on another worker got no reply in time while the owner worker
 * still looked alive (its heartbeat was present). The call may still run on the owner.
 */
export class ResourceCallTimeoutError extends Error {
  override readonly name = 'ResourceCallTimeoutError';
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

  static is(error: unknown): error is ResourceCallTimeoutError {
    return error instanceof Error && error.name === 'ResourceCallTimeoutError';
  }
}
