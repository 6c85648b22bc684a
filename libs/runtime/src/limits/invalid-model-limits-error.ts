import { errorGuard, FlotillaError } from '@flotilla/ir';

/** Model `limits` (on an adapter or in a worker's `modelLimits`) break a rule; `field` names what to fix. */
export class InvalidModelLimitsError extends FlotillaError {
  static override readonly errorName = 'InvalidModelLimitsError';
  static override readonly is = errorGuard(this);
  readonly field: string;

  constructor(where: string, field: string, problem: string) {
    super(`The limits of ${where} are invalid: ${field ? `${field} ` : ''}${problem}.`);
    this.field = field;
  }
}
