/**
 * The resources of one run execution: the worker's registry seen from this run, the
 * descriptors the run inherited from its ancestors (child job data), the `defineResource`
 * factories of the worker and the broker client. `equipResource` leases instances through it;
 * `expectResource` falls back to it when no agent of this run exposes the key.
 *
 * An inherited key resolves, in order, to
 * 1. the owner's very instance when this run executes on the owner's worker (leased, so it
 *    lives as long as this run needs it);
 * 2. a local instance built by the worker's definition for the key from the exposed deps
 *    (built before the handler starts, by {@link RunResources.prepare});
 * 3. a broker proxy forwarding async method calls to the owner worker.
 */
import type { Logger } from 'pino';
import { SETTLED } from '../shared/settled.js';
import type { ResourceDefinition } from './define-resource.js';
import type { HashedDeps } from './deps-hash.js';
import type { ResourceBrokerClient } from './resource-broker-client.js';
import { ownerScope, type ResourceDescriptor } from './resource-descriptor.js';
import { createResourceProxy } from './resource-proxy.js';
import {
  type ResourceFactory,
  type ResourceLease,
  type ResourceRegistry,
  resourceEntryId,
} from './resource-registry.js';

/** Options of a {@link RunResources}. */
export interface RunResourcesOptions {
  runId: string;
  registry: ResourceRegistry;
  /** Descriptors from the child job data, nearest ancestor first per key. @default none */
  inherited?: readonly ResourceDescriptor[];
  /** The worker's `defineResource` factories by key. @default none */
  definitions?: ReadonlyMap<string, ResourceDefinition>;
  /** Calls resources of other workers; without it (embedded mode) they are not reachable. */
  broker?: ResourceBrokerClient;
  /** The signal of the agent calling a proxied resource (the worker reads the agent context). */
  callerSignal?: () => AbortSignal | undefined;
  logger?: Logger;
}

const NONE: readonly ResourceDescriptor[] = [];
const EMPTY: ReadonlyMap<string, never> = new Map<string, never>();

/** Scope of instances built from `defineResource` factories: shared by every run of the worker. */
const DEFINED_SCOPE = 'defined';

/** The registry entry of the instance a descriptor names on its owner worker. */
export function descriptorEntryId(descriptor: ResourceDescriptor): string {
  return resourceEntryId(
    ownerScope(descriptor.ownerRunId, descriptor.ownerCallPath),
    descriptor.key,
    descriptor.depsHash,
  );
}

/** One run's view of the worker's resources. */
export class RunResources {
  readonly runId: string;
  readonly registry: ResourceRegistry;
  readonly #inherited: ReadonlyMap<string, ResourceDescriptor>;
  readonly #definitions: ReadonlyMap<string, ResourceDefinition>;
  readonly #broker: ResourceBrokerClient | undefined;
  readonly #callerSignal: () => AbortSignal | undefined;
  readonly #logger: Logger | undefined;
  /** Inherited keys resolved so far (a key resolves once per execution). */
  readonly #resolved = new Map<string, unknown>();

  constructor(options: RunResourcesOptions) {
    this.runId = options.runId;
    this.registry = options.registry;
    const inherited = options.inherited ?? NONE;
    // Most runs inherit nothing: one shared empty map, not one per execution.
    this.#inherited =
      inherited.length === 0 ? EMPTY : new Map(inherited.map((descriptor) => [descriptor.key, descriptor]));
    this.#definitions = options.definitions ?? EMPTY;
    this.#broker = options.broker;
    this.#callerSignal = options.callerSignal ?? (() => undefined);
    this.#logger = options.logger;
  }

  /** The descriptors this run inherited, one per key. */
  get inheritedDescriptors(): ResourceDescriptor[] {
    return [...this.#inherited.values()];
  }

  /** Whether the run is suspended: agent teardown then keeps leases instead of releasing them. */
  get suspended(): boolean {
    return this.registry.isSuspended(this.runId);
  }

  /**
   * Before the handler runs: a new execution stops its kept leases from expiring, and every
   * inherited key with a local definition (and no owner instance on this worker) gets its
   * local instance. A definition that fails to build is logged and the key falls back to the
   * broker proxy. Nothing to build (most runs: no inherited key with a definition here): the
   * shared settled promise, no promise of its own.
   */
  prepare(): Promise<void> {
    this.registry.resumeRun(this.runId);
    if (this.#inherited.size === 0 || this.#definitions.size === 0) return SETTLED;
    const builds = [...this.#inherited.values()]
      .filter((descriptor) => this.#definitions.has(descriptor.key) && !this.#ownerInstance(descriptor))
      .map((descriptor) => this.#buildDefined(descriptor));
    return builds.length === 0 ? SETTLED : Promise.all(builds).then(() => {});
  }

  /**
   * Leases the instance of an inline `equipResource` of the invocation `callPath`.
   * @throws ResourceRegistryClosedError when the worker is shutting down; whatever `create` throws
   */
  acquire<T>(
    callPath: string,
    key: string,
    deps: HashedDeps,
    factory: ResourceFactory<T>,
  ): Promise<ResourceLease<T>> {
    return this.registry.acquire({
      entryId: resourceEntryId(ownerScope(this.runId, callPath), key, deps.hash),
      key,
      factory,
      holder: { runId: this.runId, slot: `${callPath}#${key}` },
    });
  }

  /** The descriptor children get for a resource the invocation `callPath` exposes. */
  describe(callPath: string, key: string, deps: HashedDeps): ResourceDescriptor {
    return {
      key,
      depsHash: deps.hash,
      deps: deps.value,
      ownerRunId: this.runId,
      ownerCallPath: callPath,
      ownerWorkerId: this.registry.workerId,
      exposedAt: Date.now(),
    };
  }

  /**
   * Resolves an inherited key synchronously (see the module comment for the order);
   * `undefined` when no ancestor exposed it (or it is unreachable without a broker).
   */
  resolve(key: string): unknown {
    if (this.#resolved.has(key)) return this.#resolved.get(key);
    const descriptor = this.#inherited.get(key);
    if (!descriptor) return undefined;
    const found =
      this.#ownerInstance(descriptor) ?? this.#definedInstance(descriptor) ?? this.#proxy(descriptor);
    if (!found) return undefined;
    this.#resolved.set(key, found.instance);
    return found.instance;
  }

  /** Suspends the run: its leases stay (for a replay on this worker) until the TTL expires. */
  suspend(ttlMs?: number): void {
    this.registry.suspendRun(this.runId, ttlMs);
  }

  /** The run ended (succeeded, failed or cancelled): releases every lease it holds. */
  end(): Promise<void> {
    return this.registry.releaseRun(this.runId);
  }

  #ownerInstance(descriptor: ResourceDescriptor): { instance: unknown } | undefined {
    if (descriptor.ownerWorkerId !== this.registry.workerId) return undefined;
    const lease = this.registry.borrow(descriptorEntryId(descriptor), this.#holder(descriptor.key));
    return lease && { instance: lease.instance };
  }

  #definedInstance(descriptor: ResourceDescriptor): { instance: unknown } | undefined {
    if (!this.#definitions.has(descriptor.key)) return undefined;
    const lease = this.registry.borrow(this.#definedEntryId(descriptor), this.#holder(descriptor.key));
    return lease && { instance: lease.instance };
  }

  #proxy(descriptor: ResourceDescriptor): { instance: unknown } | undefined {
    if (!this.#broker) return undefined;
    return {
      instance: createResourceProxy(
        { entryId: descriptorEntryId(descriptor), descriptor },
        this.#broker,
        this.#callerSignal,
      ),
    };
  }

  async #buildDefined(descriptor: ResourceDescriptor): Promise<void> {
    const definition = this.#definitions.get(descriptor.key);
    if (!definition) return;
    try {
      await this.registry.acquire({
        entryId: this.#definedEntryId(descriptor),
        key: descriptor.key,
        factory: {
          create: () => definition.create(structuredClone(descriptor.deps)),
          destroy: definition.destroy?.bind(definition),
        },
        holder: this.#holder(descriptor.key),
      });
    } catch (error) {
      this.#logger?.warn(
        { err: error, key: descriptor.key },
        'defineResource factory failed; calls go to the owner worker through the broker',
      );
    }
  }

  #definedEntryId(descriptor: ResourceDescriptor): string {
    return resourceEntryId(DEFINED_SCOPE, descriptor.key, descriptor.depsHash);
  }

  #holder(key: string): { runId: string; slot: string } {
    return { runId: this.runId, slot: `inherited#${key}` };
  }
}
