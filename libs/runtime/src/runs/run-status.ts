/**
 * The lifecycle of a run:
 * `queued` (submitted) → `running` (a worker holds it; back to `running` after a crash) ⇄
 * `waiting` (suspended on child runs, holding no worker slot) → `succeeded` | `failed` |
 * `cancelled` (terminal: never left again).
 */
export type RunStatus = 'queued' | 'running' | 'waiting' | 'succeeded' | 'failed' | 'cancelled';

/** The statuses a run never leaves. */
export type TerminalRunStatus = Extract<RunStatus, 'succeeded' | 'failed' | 'cancelled'>;

/** `true` for `succeeded`, `failed` and `cancelled`. */
export function isTerminalStatus(status: RunStatus): status is TerminalRunStatus {
  return status === 'succeeded' || status === 'failed' || status === 'cancelled';
}
