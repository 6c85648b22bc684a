import { errorGuard, FlotillaError } from '@flotilla/ir';

/**
 * An agent's `concurrency.key` function threw or did not answer a key (a string of 1 to 200
 * characters) for a run's input. The run fails before it starts; fix the function.
 */
export class ConcurrencyKeyError extends FlotillaError {
  static override readonly errorName = 'ConcurrencyKeyError';
  static override readonly is = errorGuard(this);
  readonly agentId: string;

  constructor(agentId: string, problem: string, cause?: unknown) {
    super(
      `Agent "${agentId}": its concurrency.key function ${problem}; it must return a string of 1 to 200 characters for every input.`,
      { cause },
    );
    this.agentId = agentId;
  }
}
