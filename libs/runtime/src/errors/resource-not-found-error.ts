/** `expectResource(key)` found no exposed resource with that key in the agent chain. */
export class ResourceNotFoundError extends Error {
  override readonly name = 'ResourceNotFoundError';
  readonly key: string;

  constructor(key: string) {
    super(
      `Resource "${key}" was not found in the context chain. Ensure a parent agent has called ` +
        `equipResource('${key}', { ..., expose: true }) before calling this agent, or pass { optional: true }.`,
    );
    this.key = key;
  }

  static is(error: unknown): error is ResourceNotFoundError {
    return error instanceof Error && error.name === 'ResourceNotFoundError';
  }
}
