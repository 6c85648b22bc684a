/**
 * The per-worker resource registry (ARCHITECTURE.md §4): the live instances of one worker
 * process, keyed by entry id (scope + key + deps hash), reference-counted by leases that runs
 * hold, created once (concurrent acquirers share one `create`), destroyed once when the last
 * lease is released, and destroyed on {@link ResourceRegistry.close} (worker shutdown).
 *
 * A lease belongs to a holder: a run and a slot in it (`<callPath>#<key>`). When a run suspends
 * its leases stay (a TTL timer starts); a replay of the run on this worker that asks again for
 * the same slot and entry adopts its old lease, so the instance is reused, not recreated. When
 * the run ends, or the TTL expires, all its leases are released.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { SETTLED } from '../shared/settled.js';
import { ResourceRegistryClosedError } from './resource-errors.js';

/** How an instance is built and torn down. */
export interface ResourceFactory<T> {
  create: () => Promise<T> | T;
  /** Called once when the last lease is released; omit for borrowed values (never destroyed). */
  destroy?: ((resource: T) => Promise<void> | void) | undefined;
}

/** Who holds a lease: a run, and the slot in it that asked (e.g. `root/agent:parent:0#mcp:fs`). */
export interface LeaseHolder {
  runId: string;
  slot: string;
}

/** A run's claim on a live instance; the instance is destroyed when its last lease is released. */
export interface ResourceLease<T = unknown> {
  readonly entryId: string;
  readonly instance: T;
  readonly holder: LeaseHolder;
  /** Gives the lease back (once; later calls do nothing); resolves after a destroy it caused. */
  release(): Promise<void>;
}

/** What {@link ResourceRegistry.acquire} gets or creates. */
export interface AcquireRequest<T> {
  /** From {@link resourceEntryId}. */
  entryId: string;
  /** For messages. */
  key: string;
  factory: ResourceFactory<T>;
  holder: LeaseHolder;
}

/** Options of a {@link ResourceRegistry}. */
export interface ResourceRegistryOptions {
  /** Identifies this worker in descriptors and to the broker. @default a random UUID */
  workerId?: string;
  /** How long a suspended run keeps its leases before they are released. @default 600000 (10 min) */
  suspendedLeaseTtlMs?: number;
  /** Destroy failures are logged here (and never thrown). */
  logger?: Logger;
}

/** Default of {@link ResourceRegistryOptions.suspendedLeaseTtlMs}. */
export const DEFAULT_SUSPENDED_LEASE_TTL_MS = 600_000;

/**
 * The registry entry id of a resource: instances are shared only within one scope.
 * `scope` is `run:<ownerRunId>:<ownerCallPath>` for an inline `equipResource` create (closures
 * of different invocations must not share), or `defined` for `defineResource` factories.
 */
export function resourceEntryId(scope: string, key: string, depsHash: string): string {
  return `${scope}\u001f${key}\u001f${depsHash}`;
}

interface Entry {
  readonly id: string;
  readonly ready: Promise<unknown>;
  live: boolean;
  instance: unknown;
  readonly destroy: ((resource: unknown) => Promise<void> | void) | undefined;
  readonly leases: Set<Lease>;
}

interface RunLeases {
  readonly leases: Map<string, Lease>;
  suspended: boolean;
  timer: NodeJS.Timeout | undefined;
}

class Lease implements ResourceLease {
  readonly holder: LeaseHolder;
  readonly #entry: Entry;
  readonly #registry: ResourceRegistry;
  #released: Promise<void> | undefined;

  constructor(entry: Entry, holder: LeaseHolder, registry: ResourceRegistry) {
    this.#entry = entry;
    this.holder = holder;
    this.#registry = registry;
  }

  get entryId(): string {
    return this.#entry.id;
  }

  get entry(): Entry {
    return this.#entry;
  }

  get instance(): unknown {
    return this.#entry.instance;
  }

  get released(): boolean {
    return this.#released !== undefined;
  }

  release(): Promise<void> {
    this.#released ??= this.#registry.drop(this);
    return this.#released;
  }

  /** Hands the claim over to a successor: releasing this lease later does nothing. */
  retire(): void {
    this.#released ??= Promise.resolve();
  }
}

/** The live resources of one worker process. */
export class ResourceRegistry {
  readonly workerId: string;
  readonly #suspendedLeaseTtlMs: number;
  readonly #logger: Logger | undefined;
  readonly #entries = new Map<string, Entry>();
  readonly #destroying = new Map<string, Promise<void>>();
  readonly #runs = new Map<string, RunLeases>();
  #closed = false;

  constructor(options: ResourceRegistryOptions = {}) {
    this.workerId = options.workerId ?? randomUUID();
    this.#suspendedLeaseTtlMs = options.suspendedLeaseTtlMs ?? DEFAULT_SUSPENDED_LEASE_TTL_MS;
    this.#logger = options.logger;
  }

  /** Whether {@link close} was called. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Number of live (or being created) instances. */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * Gets or creates the instance `entryId` and leases it to `holder`. A holder that already
   * leases this entry (a replay after suspension) gets its lease back; one that leases another
   * entry for the same slot (deps changed) releases that first.
   * @throws ResourceRegistryClosedError after {@link close}
   * @throws whatever `create` throws (nothing is kept; the next acquire tries again)
   */
  async acquire<T>(request: AcquireRequest<T>): Promise<ResourceLease<T>> {
    if (this.#closed) throw new ResourceRegistryClosedError(request.key);
    const previous = this.#runLeases(request.holder.runId).leases.get(request.holder.slot);
    if (previous && previous.entryId === request.entryId && !previous.released) {
      await previous.entry.ready;
      return this.#transfer(previous) as ResourceLease<T>;
    }
    await previous?.release();
    await this.#destroying.get(request.entryId);
    if (this.#closed) throw new ResourceRegistryClosedError(request.key);
    const entry = this.#entries.get(request.entryId) ?? this.#createEntry(request);
    const lease = this.#lease(entry, request.holder);
    try {
      await entry.ready;
    } catch (error) {
      this.#forget(lease);
      throw error;
    }
    // Closed while `create` ran: close() released this lease and destroys the instance.
    if (lease.released) throw new ResourceRegistryClosedError(request.key);
    return lease as ResourceLease<T>;
  }

  /**
   * Leases an instance that is already live, synchronously (for `expectResource` on the owner's
   * worker); `undefined` when there is none.
   */
  borrow<T>(entryId: string, holder: LeaseHolder): ResourceLease<T> | undefined {
    const entry = this.#entries.get(entryId);
    if (this.#closed || !entry?.live) return undefined;
    const previous = this.#runs.get(holder.runId)?.leases.get(holder.slot);
    if (previous && previous.entryId === entryId && !previous.released)
      return this.#transfer(previous) as ResourceLease<T>;
    // release never rejects (destroy failures are logged); the catch keeps a rejection handled.
    previous?.release().catch((error: unknown) => this.#logger?.warn({ err: error }, 'lease release failed'));
    return this.#lease(entry, holder) as ResourceLease<T>;
  }

  /** The live instance `entryId`, or `undefined` (the broker serves calls from it). */
  lookup(entryId: string): { instance: unknown } | undefined {
    const entry = this.#entries.get(entryId);
    return entry?.live ? { instance: entry.instance } : undefined;
  }

  /**
   * Marks `runId` suspended: its leases stay, so a replay on this worker reuses the instances,
   * until {@link resumeRun}, {@link releaseRun}, or the TTL releases them.
   */
  suspendRun(runId: string, ttlMs = this.#suspendedLeaseTtlMs): void {
    const run = this.#runs.get(runId);
    if (!run) return;
    run.suspended = true;
    clearTimeout(run.timer);
    run.timer = setTimeout(() => {
      this.#logger?.info({ runId, ttlMs }, 'suspended run lease expired; releasing its resources');
      this.releaseRun(runId).catch((error: unknown) =>
        this.#logger?.warn({ err: error, runId }, 'suspended run resources not released'),
      );
    }, ttlMs);
    run.timer.unref();
  }

  /** A new execution of `runId` started here: its kept leases stop expiring. */
  resumeRun(runId: string): void {
    const run = this.#runs.get(runId);
    if (!run) return;
    run.suspended = false;
    clearTimeout(run.timer);
    run.timer = undefined;
  }

  /** Whether `runId` is suspended (its slots keep their leases instead of releasing them). */
  isSuspended(runId: string): boolean {
    return this.#runs.get(runId)?.suspended ?? false;
  }

  /**
   * Releases every lease `runId` holds (the run ended); resolves after the destroys it caused.
   * A run that holds none (most runs) gets the shared settled promise: no promise of its own.
   */
  releaseRun(runId: string): Promise<void> {
    const run = this.#runs.get(runId);
    if (!run) return SETTLED;
    clearTimeout(run.timer);
    this.#runs.delete(runId);
    return Promise.all([...run.leases.values()].map((lease) => lease.release())).then(() => {});
  }

  /** Releases every lease and destroys every instance once; later acquires are refused. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#runs.keys()].map((runId) => this.releaseRun(runId)));
    await Promise.all([...this.#destroying.values()]);
  }

  /** @internal Called by a lease's `release`. */
  async drop(lease: Lease): Promise<void> {
    this.#forget(lease);
    const { entry } = lease;
    if (entry.leases.size > 0 || this.#entries.get(entry.id) !== entry) return;
    this.#entries.delete(entry.id);
    const destroyed = this.#destroy(entry).finally(() => this.#destroying.delete(entry.id));
    this.#destroying.set(entry.id, destroyed);
    await destroyed;
  }

  #createEntry<T>(request: AcquireRequest<T>): Entry {
    const { factory } = request;
    const entry: Entry = {
      id: request.entryId,
      ready: Promise.resolve().then(() => factory.create()),
      live: false,
      instance: undefined,
      destroy: factory.destroy as Entry['destroy'],
      leases: new Set(),
    };
    this.#entries.set(entry.id, entry);
    entry.ready.then(
      (instance) => {
        entry.instance = instance;
        entry.live = true;
      },
      // The acquirers see the error; a failed create leaves nothing behind to destroy.
      () => {
        if (this.#entries.get(entry.id) === entry) this.#entries.delete(entry.id);
      },
    );
    return entry;
  }

  #lease(entry: Entry, holder: LeaseHolder): Lease {
    const lease = new Lease(entry, holder, this);
    entry.leases.add(lease);
    this.#runLeases(holder.runId).leases.set(holder.slot, lease);
    return lease;
  }

  /**
   * A new execution of the holder adopts its kept lease as a fresh one, so a late teardown of
   * the abandoned execution (releasing the old lease) cannot take the instance away.
   */
  #transfer(previous: Lease): Lease {
    previous.retire();
    previous.entry.leases.delete(previous);
    return this.#lease(previous.entry, previous.holder);
  }

  #forget(lease: Lease): void {
    lease.entry.leases.delete(lease);
    const run = this.#runs.get(lease.holder.runId);
    if (run?.leases.get(lease.holder.slot) !== lease) return;
    run.leases.delete(lease.holder.slot);
    if (run.leases.size === 0) {
      clearTimeout(run.timer);
      this.#runs.delete(lease.holder.runId);
    }
  }

  #runLeases(runId: string): RunLeases {
    let run = this.#runs.get(runId);
    if (!run) {
      run = { leases: new Map(), suspended: false, timer: undefined };
      this.#runs.set(runId, run);
    }
    return run;
  }

  async #destroy(entry: Entry): Promise<void> {
    let instance: unknown;
    try {
      instance = await entry.ready;
    } catch {
      return; // a failed create left nothing to destroy
    }
    entry.live = false;
    try {
      await entry.destroy?.(instance);
    } catch (error) {
      this.#logger?.warn({ err: error, entryId: entry.id }, 'resource destroy failed');
    }
  }
}
