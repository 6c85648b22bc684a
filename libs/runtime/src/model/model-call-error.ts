import { errorGuard, FlotillaError } from '@flotilla/ir';

/**
 * A provider call failed. Adapters throw this for every provider error so the runtime can
 * decide on retries from `retryable` alone, and so the error crosses job boundaries intact.
 */
export class ModelCallError extends FlotillaError {
  static override readonly errorName = 'ModelCallError';
  static override readonly is = errorGuard(this);
  readonly provider: string;
  readonly modelId: string;
  /** HTTP status when the provider answered; `undefined` for network failures. */
  readonly status: number | undefined;
  /** 408, 409, 429, 5xx and network failures are retryable; other 4xx are not. */
  readonly retryable: boolean;
  /** Seconds the provider asked us to wait (`retry-after`), when it said. */
  readonly retryAfterSeconds: number | undefined;

  constructor(options: {
    provider: string;
    modelId: string;
    message: string;
    status?: number;
    retryable?: boolean;
    retryAfterSeconds?: number;
    cause?: unknown;
  }) {
    super(options.message, { cause: options.cause });
    this.provider = options.provider;
    this.modelId = options.modelId;
    this.status = options.status;
    this.retryable = options.retryable ?? ModelCallError.isRetryableStatus(options.status);
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  static isRetryableStatus(status: number | undefined): boolean {
    if (status === undefined) return true;
    return status === 408 || status === 409 || status === 429 || status >= 500;
  }
}
