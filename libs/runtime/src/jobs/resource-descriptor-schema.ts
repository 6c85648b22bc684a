import { z } from 'zod';
import { boundedText, MAX_CALL_PATH_LENGTH, storedRunIdSchema } from './id-rule.js';

const MAX_KEY_LENGTH = 500;

/**
 * What a child run knows about a resource exposed by one of its ancestors; travels in job data
 * (see `resources/resource-descriptor.ts` for how it is resolved).
 */
export const resourceDescriptorSchema = z.object({
  /** The `equipResource` key, e.g. `mcp:filesystem`. */
  key: boundedText(MAX_KEY_LENGTH),
  /**
   * Hash of the canonical JSON of `deps`; with `key` it names the instance in the owner
   * worker's registry (instances are keyed by key + deps hash).
   */
  depsHash: boundedText(MAX_KEY_LENGTH),
  /**
   * The deps as JSON, handed to a `defineResource` factory that rebuilds the resource on
   * another worker. Values that are not JSON (functions, class instances) appear as
   * process-local reference tokens and cannot be rebuilt elsewhere.
   */
  deps: z.array(z.unknown()),
  /** The run whose agent called `equipResource(…, { expose: true })`. */
  ownerRunId: storedRunIdSchema,
  /** The callPath of that agent invocation in its run (resources are per invocation). */
  ownerCallPath: boundedText(MAX_CALL_PATH_LENGTH),
  /** The worker process whose registry holds the instance (and answers broker calls). */
  ownerWorkerId: boundedText(MAX_KEY_LENGTH),
  /** When the resource was exposed (epoch ms). */
  exposedAt: z.number(),
});

export type ResourceDescriptor = z.infer<typeof resourceDescriptorSchema>;

/**
 * Checks that `value` has the {@link ResourceDescriptor} shape (job data is a boundary).
 * @returns whether it does
 */
export function isResourceDescriptor(value: unknown): value is ResourceDescriptor {
  return resourceDescriptorSchema.safeParse(value).success;
}
