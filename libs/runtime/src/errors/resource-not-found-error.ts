import { errorGuard, FlotillaError } from '@flotilla/ir';

/** `expectResource(key)` found no exposed resource with that key in the agent chain. */
export class ResourceNotFoundError extends FlotillaError {
  static override readonly errorName = 'ResourceNotFoundError';
  static override readonly is = errorGuard(this);
  readonly key: string;

  constructor(key: string) {
    super(
      `Resource "${key}" was not found in the context chain. Ensure a parent agent has called ` +
        `equipResource('${key}', { ..., expose: true }) before calling this agent, or pass { optional: true }.`,
    );
    this.key = key;
  }
}
