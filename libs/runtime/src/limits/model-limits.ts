/**
 * Fleet-wide limits of one provider/model (`createOpenAIAdapter({ limits })`, the same on every
 * adapter, or the worker's `modelLimits` table), checked once where they are given.
 */
import { z } from 'zod';
import { describeIssue } from '../jobs/describe-issue.js';
import type { ModelLimits } from '../model/model-limits.js';
import { InvalidModelLimitsError } from './invalid-model-limits-error.js';

export type { ModelLimits } from '../model/model-limits.js';

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
