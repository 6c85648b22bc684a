/**
 * The pending steps of a run in Redis: the journal positions of the durable steps its latest
 * execution suspended on (`RunSuspension.pendingSteps`), kept as one field of the run record
 * (`pendingSteps`, JSON list). `suspend-run-3` writes it with the suspension (one write, no
 * extra round trip) and `RedisRunJournal.load` reads it beside the journal (sent together:
 * one round trip). On the record rather than in the journal hash: a worker of an older runtime
 * ignores a record field it does not know, but would fail the whole journal on a field that is
 * not an entry — a rolling upgrade of the runtime must not fail the runs it resumes.
 */
import { z } from 'zod';
import { MAX_PENDING_STEPS, TooManyPendingStepsError } from '../errors/patch-errors.js';
import { JournalCorruptedError } from '../errors/run-errors.js';

/** The run record field holding the pending steps (JSON list of positions). */
export const PENDING_STEPS_FIELD = 'pendingSteps';

/** The longest journal position stored or accepted (as in run exports). */
export const MAX_POSITION_LENGTH = 4096;

/** A list of pending step positions as stored (and in run exports). */
export const pendingStepsSchema = z
  .array(z.string().min(1).max(MAX_POSITION_LENGTH).includes('/'))
  .max(MAX_PENDING_STEPS);

/**
 * The stored form of run `runId`'s pending steps (`''` for none: the field is then removed).
 * Positions are the engine's own (a callPath plus segments), so only their count is checked.
 * @throws TooManyPendingStepsError past {@link MAX_PENDING_STEPS} positions
 */
export function encodePendingSteps(runId: string, positions: readonly string[]): string {
  if (positions.length === 0) return '';
  if (positions.length > MAX_PENDING_STEPS)
    throw new TooManyPendingStepsError(runId, positions.length, MAX_PENDING_STEPS);
  return JSON.stringify(positions);
}

/**
 * The pending steps stored for run `runId` (`undefined`: none stored, e.g. by an older runtime).
 * @throws JournalCorruptedError when the field is not a list of positions
 */
export function parsePendingSteps(runId: string, text: string | null | undefined): Set<string> | undefined {
  if (text === undefined || text === null) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new JournalCorruptedError(runId, PENDING_STEPS_FIELD, 'not JSON');
  }
  const parsed = pendingStepsSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new JournalCorruptedError(
      runId,
      PENDING_STEPS_FIELD,
      `${issue?.path.join('.')}: ${issue?.message}`,
    );
  }
  return new Set(parsed.data);
}
