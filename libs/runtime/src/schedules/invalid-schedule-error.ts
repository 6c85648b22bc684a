import { errorGuard, FlotillaError } from '@flotilla/ir';

/** A schedule (`client.schedule`, `POST /schedules`) breaks a rule; `field` names what to fix. Nothing was written. */
export class InvalidScheduleError extends FlotillaError {
  static override readonly errorName = 'InvalidScheduleError';
  static override readonly is = errorGuard(this);
  /** The field's path, e.g. `cron` or `everyMs`; empty when the schedule is not an object. */
  readonly field: string;

  constructor(field: string, problem: string) {
    super(`The schedule was not saved: ${problem}.`);
    this.field = field;
  }
}
