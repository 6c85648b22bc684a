/**
 * Thrown by an input adapter (or {@link validateHistory}) when a payload does not fit the
 * expected provider shape. `path` names the offending place, e.g. `messages[3].content[1].image_url`.
 */
export class IRValidationError extends Error {
  override readonly name = 'IRValidationError';
  readonly path: string;

  constructor(path: string, problem: string) {
    super(`${path}: ${problem}`);
    this.path = path;
  }

  static is(error: unknown): error is IRValidationError {
    return error instanceof Error && error.name === 'IRValidationError';
  }
}
