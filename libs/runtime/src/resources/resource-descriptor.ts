/**
 * The contract between a run that exposes a resource and the child runs that expect it.
 *
 * `equipResource(key, { …, expose: true })` on a worker records a {@link ResourceDescriptor};
 * a child call carries the descriptors of every resource its ancestors expose (nearest wins per
 * key) in the child job data (`RunJobData.resources`). On the child's worker, `expectResource`
 * resolves a descriptor, in order, to: the owner's very instance when the child runs on the
 * owner's worker; a local instance built by a `defineResource` factory registered for `key`;
 * else a broker proxy that forwards async method calls to the owner worker's registry.
 *
 * Descriptors are plain JSON: they travel in BullMQ job data.
 */

/** What a child run knows about a resource exposed by one of its ancestors. */
export interface ResourceDescriptor {
  /** The `equipResource` key, e.g. `mcp:filesystem`. */
  key: string;
  /**
   * Hash of the canonical JSON of `deps`; with `key` it names the instance in the owner
   * worker's registry (instances are keyed by key + deps hash).
   */
  depsHash: string;
  /**
   * The deps as JSON, handed to a `defineResource` factory that rebuilds the resource on
   * another worker. Values that are not JSON (functions, class instances) appear as
   * process-local reference tokens and cannot be rebuilt elsewhere.
   */
  deps: unknown[];
  /** The run whose agent called `equipResource(…, { expose: true })`. */
  ownerRunId: string;
  /** The callPath of that agent invocation in its run (resources are per invocation). */
  ownerCallPath: string;
  /** The worker process whose registry holds the instance (and answers broker calls). */
  ownerWorkerId: string;
  /** When the resource was exposed (epoch ms). */
  exposedAt: number;
}

/**
 * Checks that `value` has the {@link ResourceDescriptor} shape (job data is a boundary).
 * @returns whether it does
 */
export function isResourceDescriptor(value: unknown): value is ResourceDescriptor {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.key === 'string' &&
    typeof record.depsHash === 'string' &&
    Array.isArray(record.deps) &&
    typeof record.ownerRunId === 'string' &&
    typeof record.ownerCallPath === 'string' &&
    typeof record.ownerWorkerId === 'string' &&
    typeof record.exposedAt === 'number'
  );
}

/** The scope of the instances an agent invocation creates inline (closures are never shared). */
export function ownerScope(ownerRunId: string, ownerCallPath: string): string {
  return `run:${ownerRunId}:${ownerCallPath}`;
}
