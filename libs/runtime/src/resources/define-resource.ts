/**
 * `defineResource`: a resource factory registered by key on every worker
 * (`createWorker({ resources: [defineResource(…)] })`). When a child run expects a resource
 * that an ancestor exposed on another worker, and this worker has a definition for its key, the
 * child gets a local instance built from the exposed deps (shared by the runs of this worker
 * with the same deps) instead of a broker proxy to the owner.
 */

/** A registered resource factory; see {@link defineResource}. */
export interface ResourceDefinition<T = unknown> {
  readonly key: string;
  /** Builds an instance from the deps the owner exposed (JSON, as they traveled in the job). */
  create(deps: unknown[]): Promise<T> | T;
  /** Tears an instance down once, when the last run on this worker releases it. */
  destroy?(resource: T): Promise<void> | void;
}

/**
 * Defines how any worker builds the resource `key` from its deps.
 * @example
 * const filesystem = defineResource('mcp:filesystem', {
 *   create: async ([root]) => connectFilesystemServer(String(root)),
 *   destroy: (client) => client.close(),
 * });
 * createWorker({ agents, resources: [filesystem] });
 */
export function defineResource<T>(
  key: string,
  options: { create: (deps: unknown[]) => Promise<T> | T; destroy?: (resource: T) => Promise<void> | void },
): ResourceDefinition<T> {
  const definition: ResourceDefinition<T> = { key, create: options.create };
  if (options.destroy) definition.destroy = options.destroy;
  return definition;
}

/**
 * Indexes definitions by key.
 * @throws Error when two definitions share a key
 */
export function resourceDefinitionMap(
  definitions: readonly ResourceDefinition[] | undefined,
): ReadonlyMap<string, ResourceDefinition> {
  const map = new Map<string, ResourceDefinition>();
  for (const definition of definitions ?? []) {
    if (map.has(definition.key))
      throw new Error(
        `Two resource definitions share the key "${definition.key}"; give each key one definition.`,
      );
    map.set(definition.key, definition);
  }
  return map;
}
