import { errorGuard, FlotillaError } from '@flotilla/ir';

/** A resource was asked of a worker's registry after the worker began shutting down. */
export class ResourceRegistryClosedError extends FlotillaError {
  static override readonly errorName = 'ResourceRegistryClosedError';
  static override readonly is = errorGuard(this);
  readonly key: string;

  constructor(key: string) {
    super(
      `Resource "${key}" cannot be created: this worker's resource registry is closed (the worker is shutting down). ` +
        'The run is taken over by another worker.',
    );
    this.key = key;
  }
}
