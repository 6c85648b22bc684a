import { hashJson } from '../engine/fingerprint.js';

/**
 * The run id (= BullMQ job id) of the child run started by `parentRunId` at journal position
 * `position` (which encodes the parent's generation and call sequence), attempt `attempt`:
 * `<rootRunId>.<16 hex digits>`. Deterministic, so a replay that enqueues the same child again
 * is a no-op; fixed-length below the root, so deep trees do not grow their ids; free of `:`,
 * which BullMQ forbids in custom job ids.
 */
export function childRunIdOf(
  rootRunId: string,
  parentRunId: string,
  position: string,
  attempt: number,
): string {
  return `${rootRunId}.${hashJson([parentRunId, position, attempt])}`;
}
