/**
 * The run (or one agent in it) was cancelled. Thrown at the next durable step after the signal
 * aborts, and by `equipResource` when the agent ended while the resource was being created.
 */
export class AbortError extends Error {
  override readonly name = 'AbortError';
  /** The abort reason, as text. */
  readonly reason: string;

  constructor(reason = 'Cancelled') {
    super(`Cancelled: ${reason}`);
    this.reason = reason;
  }

  static is(error: unknown): error is AbortError {
    return error instanceof Error && error.name === 'AbortError';
  }
}
