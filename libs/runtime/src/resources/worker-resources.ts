/**
 * Everything resource-related one worker process owns: its {@link ResourceRegistry}, the
 * {@link ResourceBroker} serving its instances to runs on other workers, the
 * {@link ResourceBrokerClient} its runs call other workers with, and its `defineResource`
 * factories. `createWorker` builds one; a job's processor opens a {@link RunResources} per run.
 */
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { SETTLED } from '../shared/settled.js';
import { type ResourceDefinition, resourceDefinitionMap } from './define-resource.js';
import { ResourceBroker, type ResourceBrokerTiming } from './resource-broker.js';
import { ResourceBrokerClient } from './resource-broker-client.js';
import type { ResourceDescriptor } from './resource-descriptor.js';
import { ResourceRegistry } from './resource-registry.js';
import { RunResources } from './run-resources.js';

/** Options of {@link WorkerResources}. */
export interface WorkerResourcesOptions {
  redis: Redis;
  prefix: string;
  /** Factories registered on this worker. @default none */
  definitions?: readonly ResourceDefinition[];
  /** Heartbeat and call timing; use the same values on every worker. */
  timing?: ResourceBrokerTiming;
  /** @default 600000 (10 min), see `ResourceRegistryOptions` */
  suspendedLeaseTtlMs?: number;
  /** @default a random UUID */
  workerId?: string;
  logger?: Logger;
}

/** The resources of one worker process. */
export class WorkerResources {
  readonly registry: ResourceRegistry;
  readonly broker: ResourceBroker;
  readonly client: ResourceBrokerClient;
  readonly definitions: ReadonlyMap<string, ResourceDefinition>;
  readonly #logger: Logger | undefined;

  /** @throws Error when two definitions share a key */
  constructor(options: WorkerResourcesOptions) {
    this.definitions = resourceDefinitionMap(options.definitions);
    this.#logger = options.logger;
    this.registry = new ResourceRegistry({
      ...(options.workerId !== undefined && { workerId: options.workerId }),
      ...(options.suspendedLeaseTtlMs !== undefined && { suspendedLeaseTtlMs: options.suspendedLeaseTtlMs }),
      ...(options.logger && { logger: options.logger }),
    });
    const common = {
      redis: options.redis,
      prefix: options.prefix,
      ...(options.timing && { timing: options.timing }),
    };
    this.broker = new ResourceBroker({
      ...common,
      registry: this.registry,
      ...(options.logger && { logger: options.logger }),
    });
    this.client = new ResourceBrokerClient({ ...common, ...(options.logger && { logger: options.logger }) });
  }

  /** This worker's id, as descriptors name it. */
  get workerId(): string {
    return this.registry.workerId;
  }

  /** Starts the heartbeat and serving calls. */
  start(): Promise<void> {
    return this.broker.start();
  }

  /**
   * Opens the resources of one run execution, with the descriptors its job inherited, and
   * builds local instances for inherited keys this worker has definitions for. Returned at once
   * (no promise) when there is nothing to build: a run that inherits no resource, or none this
   * worker defines (most runs).
   */
  openRun(
    runId: string,
    inherited: readonly ResourceDescriptor[] = [],
    callerSignal?: () => AbortSignal | undefined,
  ): RunResources | Promise<RunResources> {
    const run = new RunResources({
      runId,
      registry: this.registry,
      inherited,
      definitions: this.definitions,
      broker: this.client,
      ...(callerSignal && { callerSignal }),
      ...(this.#logger && { logger: this.#logger }),
    });
    const preparing = run.prepare();
    return preparing === SETTLED ? run : preparing.then(() => run);
  }

  /** Stops serving (deleting the heartbeat), then destroys every instance once. */
  async close(): Promise<void> {
    await this.broker.close();
    await this.registry.close();
    await this.client.close();
  }
}
