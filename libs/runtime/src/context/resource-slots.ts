/**
 * The `equipResource` slots of one agent invocation (spec §5.4). A slot is (invocation, key):
 * same deps (shallow, `Object.is`) reuse the instance; changed deps destroy the old instance
 * once and create a new one; everything with a `destroy` is torn down once at agent end.
 *
 * This is the in-process registry. Issue 4 moves live instances into a per-worker registry
 * (keyed by owner callPath + key) and adds a broker for children on other workers; the slot
 * algorithm below stays the owner-side half of that design.
 */
import { AbortError } from '../errors/abort-error.js';
import type { AgentContext } from './agent-context.js';

/** How `equipResource` creates, destroys and shares a resource. */
export interface ResourceConfig<T> {
  create: () => Promise<T> | T;
  /** Called once when deps change or the agent ends; omit for borrowed values. */
  destroy?: (resource: T) => Promise<void> | void;
  /** Compared element by element with `Object.is`; a change rebuilds the resource. */
  deps: readonly unknown[];
  /** Make the resource visible to descendants through `expectResource(key)`. @default false */
  expose?: boolean;
}

interface Slot {
  deps: readonly unknown[];
  instance: unknown;
  expose: boolean;
  /** Destroys the instance at most once and unregisters it from teardown. */
  release: (() => Promise<void>) | undefined;
}

/** The resource slots of one agent invocation. */
export class ResourceSlots {
  private readonly slots = new Map<string, Slot>();
  private readonly owner: AgentContext;

  constructor(owner: AgentContext) {
    this.owner = owner;
  }

  /**
   * Gets or creates the resource `key`.
   * @throws Error when `expose` differs from the slot's first declaration
   * @throws AbortError when the agent ended while `create` was running (the new instance is destroyed)
   */
  async equip<T>(key: string, config: ResourceConfig<T>): Promise<T> {
    const expose = config.expose ?? false;
    const existing = this.slots.get(key);
    if (existing && existing.expose !== expose) {
      throw new Error(
        `Resource "${key}" was re-declared with expose:${expose}, but its slot was declared with expose:${existing.expose}. ` +
          'Exposure is a declaration-time setting and must stay the same for a key.',
      );
    }
    if (existing && sameDeps(existing.deps, config.deps)) {
      if (expose) this.owner.providers.set(key, existing.instance);
      return existing.instance as T;
    }
    if (existing) await this.drop(key, existing);
    return this.create(key, config, expose);
  }

  private async drop(key: string, slot: Slot): Promise<void> {
    // Remove first: a failing create() afterwards must not let a later call destroy it again.
    this.slots.delete(key);
    if (slot.expose && this.owner.providers.get(key) === slot.instance) this.owner.providers.delete(key);
    await slot.release?.();
  }

  private async create<T>(key: string, config: ResourceConfig<T>, expose: boolean): Promise<T> {
    const instance = await config.create();
    const release = this.releaseFor(key, instance, config.destroy);
    if (release === 'torn-down')
      throw new AbortError(`agent ended while resource "${key}" was being created`);
    this.slots.set(key, { deps: [...config.deps], instance, expose, release });
    if (expose) this.owner.providers.set(key, instance);
    return instance;
  }

  private releaseFor<T>(
    key: string,
    instance: T,
    destroy: ResourceConfig<T>['destroy'],
  ): (() => Promise<void>) | undefined | 'torn-down' {
    if (!destroy) return undefined;
    let destroyed: Promise<void> | undefined;
    const destroyOnce = () => {
      destroyed ??= Promise.resolve()
        .then(() => destroy(instance))
        .catch((error: unknown) =>
          this.owner.run.services.logger?.warn({ err: error, key }, 'resource destroy failed'),
        );
      return destroyed;
    };
    const unregister = this.owner.teardown.register(destroyOnce);
    if (!unregister) {
      void destroyOnce();
      return 'torn-down';
    }
    return async () => {
      unregister();
      await destroyOnce();
    };
  }
}

function sameDeps(previous: readonly unknown[], next: readonly unknown[]): boolean {
  return previous.length === next.length && previous.every((value, index) => Object.is(value, next[index]));
}
