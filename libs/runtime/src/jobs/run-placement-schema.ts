import { z } from 'zod';
import { boundedText, MAX_CALL_PATH_LENGTH, storedRunIdSchema } from './id-rule.js';

/** Model ids are provider names (`models/gemini-2.0-flash`), not ids: only bounded. */
const MAX_MODEL_ID_LENGTH = 500;

/** Where a child run's root invocation sits in its tree (absent for root runs); travels in job data. */
export const runPlacementSchema = z.object({
  /** The root invocation's callPath, e.g. `root/agent:planner:0/g0/agent:researcher:2`. */
  callPath: boundedText(MAX_CALL_PATH_LENGTH),
  /** Nesting depth of the root invocation (the root run's agent is 0). */
  depth: z.int().min(0),
  /** The run that called this one. */
  parentRunId: storedRunIdSchema,
  /** The root of the tree. */
  rootRunId: storedRunIdSchema,
  /** Id (in `RunServices.models`) of the caller's model, used when the agent has none of its own. */
  modelId: boundedText(MAX_MODEL_ID_LENGTH).optional(),
});

export type RunPlacement = z.infer<typeof runPlacementSchema>;
