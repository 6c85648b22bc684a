import { type ModelLimits, type ResolvedModelLimits, resolveModelLimits } from '@flotilla/runtime';

/** The fleet-wide limits option every adapter takes. */
export interface LimitOptions {
  /**
   * Requests / tokens per minute for this provider/model, shared by every worker of the fleet
   * (`{ rpm?, tpm?, burst?, maxWaitMs? }`, see `ModelLimits`): on a worker, calls wait for the
   * budget instead of failing, and a 429 pauses it for the whole fleet. @default none
   */
  limits?: ModelLimits;
}

/**
 * The adapter's checked limits, or `undefined`.
 * @throws InvalidModelLimitsError naming the field when they are invalid
 */
export function adapterLimits(
  options: LimitOptions,
  provider: string,
  modelId: string,
): ResolvedModelLimits | undefined {
  return options.limits === undefined
    ? undefined
    : resolveModelLimits(options.limits, `model ${provider}/${modelId}`);
}
