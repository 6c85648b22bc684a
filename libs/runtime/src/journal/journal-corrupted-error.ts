import { errorGuard, FlotillaError } from '@flotilla/ir';

/**
 * Thrown when a run's journal holds an entry that does not parse as a journal entry. Names the
 * run and the position; the run cannot replay safely until the entry is repaired or removed.
 */
export class JournalCorruptedError extends FlotillaError {
  static override readonly errorName = 'JournalCorruptedError';
  static override readonly is = errorGuard(this);
  readonly runId: string;
  readonly position: string;

  constructor(runId: string, position: string, problem: string) {
    super(
      `The journal of run "${runId}" is corrupted at position "${position}": ${problem}. ` +
        'Inspect or remove that entry before replaying the run.',
    );
    this.runId = runId;
    this.position = position;
  }
}
