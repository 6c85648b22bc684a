import * as crypto from 'node:crypto';

/**
 * The run id (= BullMQ job id) of the child run started by `parentRunId` at journal position
 * `position` (which encodes the parent's generation and call sequence), attempt `attempt`:
 * `<rootRunId>.<16 hex digits>`. Deterministic, so a replay that enqueues the same child again
 * is a no-op; fixed-length below the root, so deep trees do not grow their ids; free of `:`,
 * which BullMQ forbids in custom job ids.
 *
 * The digits are the SHA-256 of `[parentRunId, position, attempt]` as JSON, cut to 16: the text
 * `hashJson` (`engine/fingerprint.ts`) writes for two strings and an integer (its canonical
 * writer walks the array, a path string per item), so the ids of children enqueued by older
 * workers are the same (`engine/fingerprint.test.ts` pins them). Not memoized like `hashJson`:
 * every child id is hashed once per execution.
 */
export function childRunIdOf(
  rootRunId: string,
  parentRunId: string,
  position: string,
  attempt: number,
): string {
  if (!Number.isSafeInteger(attempt)) throw new RangeError(`child run attempt ${attempt} is not an integer`);
  const text = JSON.stringify([parentRunId, position, attempt]);
  return `${rootRunId}.${sha256Hex(text).slice(0, 16)}`;
}

/** `crypto.hash` (Node ≥ 20.12) in one call when there is one, else a `Hash` object: same digest. */
const oneShotHash = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;
function sha256Hex(text: string): string {
  return oneShotHash
    ? oneShotHash('sha256', text, 'hex')
    : crypto.createHash('sha256').update(text).digest('hex');
}
