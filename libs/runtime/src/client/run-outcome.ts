import type { SerializedError } from '../errors/serialize-error.js';
import { deserializeError } from '../errors/serialize-error.js';
import type { RunEndEvent } from '../events/run-event.js';
import type { RunRecord } from '../runs/run-record.js';

/** What `result()` settles on: a terminal record, or a `run-end` that carries its outcome. */
export type RunOutcome = Pick<RunRecord, 'runId' | 'status' | 'output' | 'error'>;

/**
 * The outcome `event` carries, or `undefined` when the record must be read for it: the
 * output or error was too large for the event (`outcomeInRecord`), or the event is from a
 * version that left it out. The finish script writes the event and the record's end in one
 * script, so what the event carries is what the record holds. The error is checked as the
 * record's is when read (a name and a message), since it is handed to `deserializeError`.
 */
export function outcomeOfRunEnd(event: RunEndEvent): RunOutcome | undefined {
  if (event.outcomeInRecord) return undefined;
  const runId = event.runId;
  if (event.status === 'succeeded')
    return 'output' in event ? { runId, status: 'succeeded', output: event.output } : undefined;
  if (event.status !== 'failed' && event.status !== 'cancelled') return undefined;
  return isSerializedError(event.error) ? { runId, status: event.status, error: event.error } : undefined;
}

/** The output of a run that succeeded; otherwise throws its error, rebuilt. */
export function settleOutcome<Output>(outcome: RunOutcome): Output {
  if (outcome.status === 'succeeded') return outcome.output as Output;
  if (outcome.error) throw deserializeError(outcome.error);
  throw new Error(`Run "${outcome.runId}" ended with status ${outcome.status} and no error recorded.`);
}

function isSerializedError(value: unknown): value is SerializedError {
  const error = value as Partial<SerializedError> | null | undefined;
  return typeof error?.name === 'string' && typeof error.message === 'string';
}
