/** Messages handed to a policy break the history rules (e.g. a tool result without its call). */
export class InvalidMessageHistoryError extends Error {
  override readonly name = 'InvalidMessageHistoryError';
  /** Index of the offending message in the list the policy built. */
  readonly index: number;

  constructor(index: number, reason: string) {
    super(`Invalid message history at index ${index}: ${reason}`);
    this.index = index;
  }

  static is(error: unknown): error is InvalidMessageHistoryError {
    return error instanceof Error && error.name === 'InvalidMessageHistoryError';
  }
}
