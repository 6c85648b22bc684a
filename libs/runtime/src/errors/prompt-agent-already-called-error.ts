import { errorGuard, FlotillaError } from '@flotilla/ir';

/**
 * A second policy call (`promptAgent`, `promptChat` or a custom policy) in one generation.
 * One policy call per generation: use `reborn()` or a child agent for more.
 */
export class PromptAgentAlreadyCalledError extends FlotillaError {
  static override readonly errorName = 'PromptAgentAlreadyCalledError';
  static override readonly is = errorGuard(this);
  /** The policy that was called the second time. */
  readonly policyId: string;

  constructor(policyId: string) {
    super(
      `promptAgent has already been called in this generation (second call: ${policyId}); a policy ` +
        'may only be called once per generation. Return reborn() or call a child agent for another prompt.',
    );
    this.policyId = policyId;
  }
}
