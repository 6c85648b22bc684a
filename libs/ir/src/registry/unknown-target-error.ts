import { errorGuard, FlotillaError } from '../flotilla-error.js';

/**
 * Thrown by {@link AdapterRegistry.get} (and so by `getAdapter` and `compile({ target })`) for a
 * target name nobody registered. The message lists the registered names and says how to
 * register the missing one.
 */
export class UnknownTargetError extends FlotillaError {
  static override readonly errorName = 'UnknownTargetError';
  static override readonly is = errorGuard(this);
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
}
