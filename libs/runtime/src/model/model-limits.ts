/**
 * The fleet-wide limits a model adapter may declare (`limits` on every adapter, or a worker's
 * `modelLimits`); enforced by `limits/` (one GCRA script per provider/model). The type lives with
 * the adapter contract so the contract does not depend on the enforcement.
 */
/** Requests and tokens per minute shared by every worker of the fleet; give `rpm`, `tpm` or both. */
export interface ModelLimits {
  /** Requests per minute, fleet-wide; requests are spaced evenly (60000 / rpm ms apart, see `burst`). */
  rpm?: number;
  /**
   * Tokens per minute, fleet-wide (prompt + completion): each request draws an estimate of its
   * tokens before it goes and is corrected by the usage the provider reports.
   */
  tpm?: number;
  /** Requests that may go at once before the spacing applies. @default 1 */
  burst?: number;
  /**
   * The longest one model call waits for the budget in all; past it the call fails with
   * `RateLimitWaitError` (a run's own deadline and cancel end the wait sooner). @default 600000 (10 min)
   */
  maxWaitMs?: number;
}
