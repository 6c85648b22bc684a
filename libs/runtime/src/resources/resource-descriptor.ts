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

// The descriptor's shape is validated where it arrives, in job data: its schema lives with the job data's.
export {
  isResourceDescriptor,
  type ResourceDescriptor,
  resourceDescriptorSchema,
} from '../jobs/resource-descriptor-schema.js';

/** The scope of the instances an agent invocation creates inline (closures are never shared). */
export function ownerScope(ownerRunId: string, ownerCallPath: string): string {
  return `run:${ownerRunId}:${ownerCallPath}`;
}
