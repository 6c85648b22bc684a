/**
 * Fleet-wide limits of one provider/model (`createOpenAIAdapter({ limits })`, the same on every
 * adapter, or the worker's `modelLimits` table), checked once where they are given.
 */
import { z } from 'zod';
import { describeIssue } from '../jobs/describe-issue.js';
import { InvalidModelLimitsError } from './invalid-model-limits-error.js';

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

/** {@link ModelLimits} with every default filled in. */
export type ResolvedModelLimits = Required<Pick<ModelLimits, 'burst' | 'maxWaitMs'>> &
  Pick<ModelLimits, 'rpm' | 'tpm'>;

const positive = (what: string) =>
  z
    .number({ error: `must be a number of ${what} > 0` })
    .positive({ error: `must be a number of ${what} > 0` });

export const modelLimitsSchema = z.strictObject(
  {
    rpm: positive('requests per minute').max(1e9).optional(),
    tpm: positive('tokens per minute').max(1e12).optional(),
    burst: z.int({ error: 'must be a whole number ≥ 1' }).min(1).max(100_000).optional(),
    maxWaitMs: z
      .int({ error: 'must be a whole number of milliseconds ≥ 0' })
      .min(0)
      .max(24 * 3600 * 1000)
      .optional(),
  },
  { error: 'limits must be an object: { rpm?, tpm?, burst?, maxWaitMs? }' },
);

/** The default of {@link ModelLimits.maxWaitMs}. */
export const DEFAULT_MAX_BUDGET_WAIT_MS = 600_000;

/**
 * Checks limits and fills their defaults.
 * @throws InvalidModelLimitsError naming the field (and `where` they were given) when one is wrong or neither `rpm` nor `tpm` is given
 */
export function resolveModelLimits(value: unknown, where: string): ResolvedModelLimits {
  const parsed = modelLimitsSchema.safeParse(value);
  if (!parsed.success) {
    const field = parsed.error.issues[0]?.path.map(String).join('.') ?? '';
    throw new InvalidModelLimitsError(where, field, describeIssue(parsed.error));
  }
  const { rpm, tpm, burst, maxWaitMs } = parsed.data;
  if (rpm === undefined && tpm === undefined)
    throw new InvalidModelLimitsError(where, 'rpm', 'give `rpm`, `tpm` or both');
  return {
    ...(rpm !== undefined && { rpm }),
    ...(tpm !== undefined && { tpm }),
    burst: burst ?? 1,
    maxWaitMs: maxWaitMs ?? DEFAULT_MAX_BUDGET_WAIT_MS,
  };
}
