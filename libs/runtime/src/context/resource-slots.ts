/**
 * The `equipResource` slots of one agent invocation (spec §5.4). A slot is (invocation, key):
 * same deps (shallow, `Object.is`) reuse the instance; changed deps release the old instance
 * (destroyed once) and lease a new one; at agent end every slot's lease is released (LIFO).
 *
 * Instances live in the worker's resource registry (`src/resources/`), keyed by the owning
 * invocation, the key and the deps hash, so a replay of the run on the same worker reuses them
 * and the broker can serve them to children on other workers. While the run is suspended, agent
 * teardown keeps the leases (the registry expires them after a TTL).
 */
import { AbortError } from '../errors/run-errors.js';
import { hashDeps } from '../resources/deps-hash.js';
import type { ResourceDescriptor } from '../resources/resource-descriptor.js';
import type { ResourceLease } from '../resources/resource-registry.js';
import type { AgentContext } from './agent-context.js';
import { runResourcesOf } from './run-resources-of.js';

/** How `equipResource` creates, destroys and shares a resource. */
export interface ResourceConfig<T> {
  create: () => Promise<T> | T;
  /** Called once when deps change or the agent ends; omit for borrowed values. */
  destroy?: (resource: T) => Promise<void> | void;
  /**
   * Compared element by element with `Object.is`; a change rebuilds the resource. Keep them
   * JSON when the resource is exposed: they travel to children on other workers (for
   * `defineResource` factories there).
   */
  deps: readonly unknown[];
  /** Make the resource visible to descendants through `expectResource(key)`. @default false */
  expose?: boolean;
}

interface Slot {
  deps: readonly unknown[];
  instance: unknown;
  expose: boolean;
  /** What children on other workers get, when exposed. */
  descriptor: ResourceDescriptor | undefined;
  /** Releases the lease at most once and unregisters it from teardown. */
  release: () => Promise<void>;
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
   * @throws AbortError when the agent ended while `create` was running (the new instance is released)
   * @throws ResourceRegistryClosedError when the worker is shutting down
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

  /** Descriptors of the resources this invocation exposes, by key. */
  exposedDescriptors(): Map<string, ResourceDescriptor> {
    const exposed = new Map<string, ResourceDescriptor>();
    for (const [key, slot] of this.slots) if (slot.descriptor) exposed.set(key, slot.descriptor);
    return exposed;
  }

  private async drop(key: string, slot: Slot): Promise<void> {
    // Remove first: a failing create() afterwards must not let a later call release it again.
    this.slots.delete(key);
    if (slot.expose && this.owner.providers.get(key) === slot.instance) this.owner.providers.delete(key);
    await slot.release();
  }

  private async create<T>(key: string, config: ResourceConfig<T>, expose: boolean): Promise<T> {
    const resources = runResourcesOf(this.owner.run);
    const deps = hashDeps(config.deps);
    const lease = await resources.acquire(this.owner.callPath, key, deps, {
      create: config.create,
      destroy: config.destroy,
    });
    const release = this.releaseFor(key, lease);
    const instance = lease.instance;
    const descriptor = expose ? resources.describe(this.owner.callPath, key, deps) : undefined;
    this.slots.set(key, { deps: [...config.deps], instance, expose, descriptor, release });
    if (expose) this.owner.providers.set(key, instance);
    return instance;
  }

  /** Registers the lease's release on the agent's teardown; refuses when teardown already ran. */
  private releaseFor(key: string, lease: ResourceLease<unknown>): () => Promise<void> {
    const resources = runResourcesOf(this.owner.run);
    // A suspended run keeps its leases, so its replay on this worker finds the instances.
    const atTeardown = async () => {
      if (!resources.suspended) await lease.release();
    };
    const unregister = this.owner.teardown.register(atTeardown);
    if (!unregister) {
      lease
        .release()
        .catch((error: unknown) =>
          this.owner.run.services.logger?.warn({ err: error }, 'lease release failed'),
        );
      throw new AbortError(`agent ended while resource "${key}" was being created`);
    }
    return async () => {
      unregister();
      await lease.release();
    };
  }
}

function sameDeps(previous: readonly unknown[], next: readonly unknown[]): boolean {
  return previous.length === next.length && previous.every((value, index) => Object.is(value, next[index]));
}
