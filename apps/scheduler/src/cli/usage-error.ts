/** The command line is wrong; the message says how, the CLI prints its usage after it. */
export class UsageError extends Error {
  override readonly name = 'UsageError';

  static is(error: unknown): error is UsageError {
    return error instanceof Error && error.name === 'UsageError';
  }
}
