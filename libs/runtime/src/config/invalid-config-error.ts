import { errorGuard, FlotillaError } from '@flotilla/ir';

/**
 * A configuration value (an environment variable or the option that stands for it) is
 * invalid. `variable` names it, so the message points at what to fix; `option` names the
 * option when the value was given in code.
 */
export class InvalidConfigError extends FlotillaError {
  static override readonly errorName = 'InvalidConfigError';
  static override readonly is = errorGuard(this);
  /** The environment variable, e.g. `FLOTILLA_WORKER_CONCURRENCY`. */
  readonly variable: string;
  readonly value: string;
  /** The option, e.g. `workerConcurrency`, when the value was given in code rather than by `variable`. */
  readonly option: string | undefined;

  constructor(variable: string, value: string, expected: string, option?: string) {
    super(
      option === undefined
        ? `${variable}=${JSON.stringify(value)} is invalid: expected ${expected}. Fix or unset ${variable}.`
        : `The option ${option} (${variable}) = ${value} is invalid: expected ${expected}. Fix the value passed in code.`,
    );
    this.variable = variable;
    this.value = value;
    this.option = option;
  }
}
