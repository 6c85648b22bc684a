/**
 * Thrown by {@link AdapterRegistry.get} (and so by `getAdapter` and `compile({ target })`) for a
 * target name nobody registered. The message lists the registered names and says how to
 * register the missing one.
 */
export class UnknownTargetError extends Error {
  override readonly name = 'UnknownTargetError';
  /** The name that was asked for. */
  readonly target: string;
  /** The names registered at the time, in registration order. */
  readonly registered: string[];

  constructor(target: string, registered: string[]) {
    const list = registered.length === 0 ? '(none)' : `[${registered.join(', ')}]`;
    super(
      `Unknown adapter target: "${target}". Registered: ${list}. ` +
        `Use adapterRegistry.register("${target}", ...) before chef.compile().`,
    );
    this.target = target;
    this.registered = registered;
  }

  static is(error: unknown): error is UnknownTargetError {
    return error instanceof Error && error.name === 'UnknownTargetError';
  }
}
