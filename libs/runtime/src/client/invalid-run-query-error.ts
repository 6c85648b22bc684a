import { errorGuard, FlotillaError } from '@flotilla/ir';

/** A run list query (`client.listRuns`, the scheduler's `GET /runs`) breaks a rule; `field` names what to fix. */
export class InvalidRunQueryError extends FlotillaError {
  static override readonly errorName = 'InvalidRunQueryError';
  static override readonly is = errorGuard(this);
  /** The field's name, e.g. `limit` or `cursor`; empty when the query is not an object. */
  readonly field: string;

  constructor(field: string, problem: string) {
    super(`The run list query is invalid: ${problem}. Fix \`${field || 'the query'}\` and ask again.`);
    this.field = field;
  }
}
