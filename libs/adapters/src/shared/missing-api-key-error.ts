/** Thrown when a model adapter is created without an API key in its options or the environment. */
export class MissingApiKeyError extends Error {
  override readonly name = 'MissingApiKeyError';
  readonly provider: string;

  /** @param environment the variables that were checked, e.g. `['OPENAI_API_KEY']` */
  constructor(provider: string, environment: string[]) {
    super(
      `No ${provider} API key: pass { apiKey } or a ready { client } to the adapter, or set ${environment.join(' or ')}.`,
    );
    this.provider = provider;
  }

  static is(error: unknown): error is MissingApiKeyError {
    return error instanceof Error && error.name === 'MissingApiKeyError';
  }
}
