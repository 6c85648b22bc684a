/**
 * The retry policy of a ROOT run (one the client submitted). Child runs get their agent's
 * `retry` as BullMQ job options when their parent enqueues them; the client only knows the
 * agent id, so for a root run the worker applies the policy: a failed attempt with attempts left
 * moves the job to delayed for the backoff (BullMQ's `moveToDelayed` + `DelayedError`) and the
 * next attempt replays the run from its journal: model turns, tools and child calls already
 * recorded are not run again, and memory is kept. The failures so far travel in the job data
 * (`failedAttempts`), so any worker continues the count.
 */
import type { AgentRetryPolicy } from '../context/agent-definition.js';

/** Whether a root run that has now failed `failures` times (this one included) gets another attempt. */
export function hasAttemptsLeft(policy: AgentRetryPolicy | undefined, failures: number): boolean {
  return policy !== undefined && failures < policy.attempts;
}

/**
 * The wait before the next attempt after `failures` failures, in ms, as BullMQ computes it for
 * child jobs: `fixed` waits `delayMs`, `exponential` waits `delayMs · 2^(failures − 1)`.
 * @default 0 when the policy has no backoff
 */
export function retryDelayMs(policy: AgentRetryPolicy, failures: number): number {
  const backoff = policy.backoff;
  if (!backoff) return 0;
  if (backoff.type === 'fixed') return backoff.delayMs;
  return Math.round(backoff.delayMs * 2 ** Math.max(0, failures - 1));
}
