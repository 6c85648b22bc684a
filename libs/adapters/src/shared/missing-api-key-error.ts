import { errorGuard, FlotillaError } from '@flotilla/ir';

/** Thrown when a model adapter is created without an API key in its options or the environment. */
export class MissingApiKeyError extends FlotillaError {
  static override readonly errorName = 'MissingApiKeyError';
  static override readonly is = errorGuard(this);
  readonly provider: string;

  /** @param environment the variables that were checked, e.g. `['OPENAI_API_KEY']` */
  constructor(provider: string, environment: string[]) {
    super(
      `No ${provider} API key: pass { apiKey } or a ready { client } to the adapter, or set ${environment.join(' or ')}.`,
    );
    this.provider = provider;
  }
}
