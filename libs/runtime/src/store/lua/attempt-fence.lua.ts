/**
 * The attempt fence shared by every script that writes a run's keys (ARCHITECTURE.md §9): the
 * run's record holds the token of the attempt that owns the run (`attempt`, written by
 * start-run-5), and a write that carries another token is refused — a newer attempt took the
 * run over. One HGET inside a script that runs anyway: no extra round trip.
 */

/** What a fenced script returns when it refused the write. */
export const ATTEMPT_SUPERSEDED = -1;

/**
 * Lua that returns {@link ATTEMPT_SUPERSEDED} when the caller's token (`tokenArg`, e.g.
 * `ARGV[1]`) is not the record's (`recordKey`, e.g. `KEYS[1]`). An empty token is no attempt's
 * (a cancel, the stalled-job handler, a reader) and is never refused; neither is a record with
 * no token (written by a worker of an earlier version, or lost with a Redis crash).
 */
export function refuseSupersededAttempt(recordKey: string, tokenArg: string): string {
  return `if ${tokenArg} ~= '' then
  local owner = redis.call('HGET', ${recordKey}, 'attempt')
  if owner and owner ~= ${tokenArg} then return ${ATTEMPT_SUPERSEDED} end
end`;
}

/**
 * {@link refuseSupersededAttempt} for a script that read the record's `attempt` already (`owner`,
 * e.g. `record[1]` of an HMGET that fetched other fields with it: no HGET of its own). One line.
 */
export function refuseOtherOwner(owner: string, tokenArg: string): string {
  return `if ${tokenArg} ~= '' and ${owner} and ${owner} ~= ${tokenArg} then return ${ATTEMPT_SUPERSEDED} end`;
}
