import { errorGuard, FlotillaError } from '@flotilla/ir';

/** Why a policy primitive refused its runtime. */
export type InvalidPromptRuntimeReason = 'missing' | 'unsealed' | 'expired' | 'foreign';

/**
 * A policy primitive (`executeTurn`, `executeTools`, `executeValidation`) was given a runtime
 * that is not the active policy's: none, a hand-built object, one kept after its policy
 * returned, or one from another agent or generation.
 */
export class InvalidPromptRuntimeError extends FlotillaError {
  static override readonly errorName = 'InvalidPromptRuntimeError';
  static override readonly is = errorGuard(this);
  readonly apiName: string;
  readonly reason: InvalidPromptRuntimeReason;

  constructor(apiName: string, reason: InvalidPromptRuntimeReason) {
    super(
      `${apiName} was given an invalid prompt runtime (${reason}). Pass the PromptContext your policy handler ` +
        'received (or a spread copy / fork of it), and only while that handler is running.',
    );
    this.apiName = apiName;
    this.reason = reason;
  }
}
