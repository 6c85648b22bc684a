/** A resource was asked of a worker's registry after the worker began shutting down. */
export class ResourceRegistryClosedError extends Error {
  override readonly name = 'ResourceRegistryClosedError';
  readonly key: string;

  constructor(key: string) {
    super(
      `Resource "${key}" cannot be created: this worker's resource registry is closed (the worker is shutting down). ` +
        'The run is taken over by another worker.',
    );
    this.key = key;
  }

  static is(error: unknown): error is ResourceRegistryClosedError {
    return error instanceof Error && error.name === 'ResourceRegistryClosedError';
  }
}
