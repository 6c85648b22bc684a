import { errorGuard, FlotillaError } from './flotilla-error.js';

/**
 * Thrown by an input adapter (or {@link validateHistory}) when a payload does not fit the
 * expected provider shape. `path` names the offending place, e.g. `messages[3].content[1].image_url`.
 */
export class IRValidationError extends FlotillaError {
  static override readonly errorName = 'IRValidationError';
  static override readonly is = errorGuard(this);
  readonly path: string;

  constructor(path: string, problem: string) {
    super(`${path}: ${problem}`);
    this.path = path;
  }
}
