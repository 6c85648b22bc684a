import { z } from 'zod';

/** Where a child run's root invocation sits in its tree (absent for root runs); travels in job data. */
export const runPlacementSchema = z.object({
  /** The root invocation's callPath, e.g. `root/agent:planner:0/g0/agent:researcher:2`. */
  callPath: z.string(),
  /** Nesting depth of the root invocation (the root run's agent is 0). */
  depth: z.int(),
  /** The run that called this one. */
  parentRunId: z.string(),
  /** The root of the tree. */
  rootRunId: z.string(),
  /** Id (in `RunServices.models`) of the caller's model, used when the agent has none of its own. */
  modelId: z.string().optional(),
});

export type RunPlacement = z.infer<typeof runPlacementSchema>;
