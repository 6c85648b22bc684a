import { errorGuard, FlotillaError } from '@flotilla/ir';

/** A submission (`client.submit`, or the scheduler's `POST /runs` body) breaks a rule; `field` names what to fix. Nothing was written. */
export class InvalidSubmitRequestError extends FlotillaError {
  static override readonly errorName = 'InvalidSubmitRequestError';
  static override readonly is = errorGuard(this);
  /** The field's path, e.g. `runId` or `scope.0`; empty when the submission is not an object. */
  readonly field: string;

  constructor(field: string, problem: string) {
    super(`The run was not submitted: ${problem}.`);
    this.field = field;
  }
}
