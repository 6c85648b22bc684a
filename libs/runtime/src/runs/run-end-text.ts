import type { RunEndEvent } from '../events/run-event.js';

/**
 * Longest `run-end` text (characters) that carries the run's outcome: `result()` settles on the
 * event alone then, with no record read. A larger output or error is in the record only (it is
 * written there in the same script): the event says so with `outcomeInRecord`.
 */
export const MAX_RUN_END_OUTCOME_CHARS = 16 * 1024;

/** `event` as the text the run's stream gets (see {@link MAX_RUN_END_OUTCOME_CHARS}). */
export function runEndText(event: RunEndEvent): string {
  const text = JSON.stringify(event);
  if (text.length <= MAX_RUN_END_OUTCOME_CHARS) return text;
  const { output: _output, error: _error, ...rest } = event;
  return JSON.stringify({ ...rest, outcomeInRecord: true } satisfies RunEndEvent);
}
