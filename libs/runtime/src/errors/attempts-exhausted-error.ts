import { errorGuard, FlotillaError } from '@flotilla/ir';

/** Why the last validation attempt failed. */
export type ValidationFailureType = 'no_content' | 'parse_error' | 'schema' | 'validator';

/** The model's answer failed validation on every attempt (`maxRetries + 1` of them). */
export class AttemptsExhaustedError extends FlotillaError {
  static override readonly errorName = 'AttemptsExhaustedError';
  static override readonly is = errorGuard(this);
  readonly attempts: number;
  /** Every validation problem, across all attempts. */
  readonly issues: string[];
  readonly lastFailureType: ValidationFailureType;
  readonly lastData: unknown;
  readonly lastRawText: string;

  constructor(options: {
    attempts: number;
    issues: string[];
    lastFailureType: ValidationFailureType;
    lastData: unknown;
    lastRawText: string;
  }) {
    super(
      `All attempts exhausted (${options.attempts} attempts). ${options.issues.length} issues found. ` +
        `Last failure (${options.lastFailureType}): ${options.issues.at(-1) ?? 'unknown'}. ` +
        'Raise maxRetries or make the schema / instructions easier to satisfy.',
    );
    this.attempts = options.attempts;
    this.issues = options.issues;
    this.lastFailureType = options.lastFailureType;
    this.lastData = options.lastData;
    this.lastRawText = options.lastRawText;
  }
}
