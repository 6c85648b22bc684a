/** No run has this id: it was never submitted, or its record expired (see run retention). */
export class RunNotFoundError extends Error {
  override readonly name = 'RunNotFoundError';
  readonly runId: string;

  constructor(runId: string) {
    super(`No run "${runId}": it was never submitted, or it ended longer ago than the run retention.`);
    this.runId = runId;
  }

  static is(error: unknown): error is RunNotFoundError {
    return error instanceof Error && error.name === 'RunNotFoundError';
  }
}
