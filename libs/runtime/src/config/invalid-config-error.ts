import { errorGuard, FlotillaError } from '@flotilla/ir';

/**
 * A configuration value (an environment variable or the option that stands for it) is
 * invalid. `variable` names it, so the message points at what to fix.
 */
export class InvalidConfigError extends FlotillaError {
  static override readonly errorName = 'InvalidConfigError';
  static override readonly is = errorGuard(this);
  /** The environment variable, e.g. `FLOTILLA_WORKER_CONCURRENCY`. */
  readonly variable: string;
  readonly value: string;

  constructor(variable: string, value: string, expected: string) {
    super(`${variable}=${JSON.stringify(value)} is invalid: expected ${expected}. Fix or unset ${variable}.`);
    this.variable = variable;
    this.value = value;
  }
}
