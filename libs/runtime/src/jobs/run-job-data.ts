/**
 * The data of a run's BullMQ job (job name = agent id, job id = run id), as one schema: what a
 * client or a calling run writes and what a worker accepts. Rules on job data belong in
 * {@link runJobDataSchema}; the payload size limit is checked apart, before `input` is parsed.
 */
import { z } from 'zod';
import { describeIssue } from './describe-issue.js';
import { InvalidRunInputError, PayloadTooLargeError } from './job-data-errors.js';
import { resourceDescriptorSchema } from './resource-descriptor-schema.js';
import { runPlacementSchema } from './run-placement-schema.js';

/** One scope layer: a JSON object (not an array). */
export const scopeLayerSchema = z.record(z.string(), z.unknown(), { error: 'must be an object' });

/** Scope layers, outermost first. */
export const scopeSchema = z.array(scopeLayerSchema, { error: 'must be an array of objects' });

const wholeCount = 'must be a whole number ≥ 0';

/**
 * A run's job data. `input` travels as JSON text so its size is checked before it is parsed;
 * conversations never travel in jobs, only their id.
 */
export const runJobDataSchema = z.object(
  {
    /** The agent's input as JSON text. */
    input: z.string({ error: 'must be JSON text' }),
    conversationId: z
      .string({ error: 'must be a non-empty string' })
      .min(1, { error: 'must be a non-empty string' })
      .optional(),
    /** Scope layers, outermost first (for a child run: captured from its caller when it was enqueued). */
    scope: scopeSchema.optional(),
    /** For a child run (a BullMQ child job): its place in the tree. */
    child: runPlacementSchema.optional(),
    /** For a child run: resources its ancestors expose (filled by the resource registry). */
    resources: z
      .array(resourceDescriptorSchema, { error: 'must be an array of resource descriptors' })
      .optional(),
    /**
     * The run's deadline (epoch ms): from `submit(…, { timeoutMs })`, or for a child run its
     * parent's deadline. Every attempt on every worker enforces the same one (with the agent's
     * own `timeoutMs` counted from the job's creation, if sooner).
     */
    deadline: z.int({ error: 'must be a whole number of epoch milliseconds' }).min(0).optional(),
    /** For a root run: failed attempts so far, written by the worker that retries it. */
    failedAttempts: z.int({ error: wholeCount }).min(0, { error: wholeCount }).optional(),
  },
  { error: 'the job data is not an object' },
);

export type RunJobData = z.infer<typeof runJobDataSchema>;

/** A run's job data, checked, with `input` parsed. */
export type DecodedRunJob = Omit<RunJobData, 'input'> & { input: unknown };

/** Builds job data; `undefined` input is sent as `null` (JSON has no `undefined`). */
export function encodeRunJobData(
  input: unknown,
  options: Partial<Omit<{ [K in keyof RunJobData]: RunJobData[K] | undefined }, 'input' | 'failedAttempts'>>,
): RunJobData {
  const data: RunJobData = { input: JSON.stringify(input ?? null) };
  if (options.conversationId !== undefined) data.conversationId = options.conversationId;
  if (options.scope !== undefined) data.scope = options.scope;
  if (options.child !== undefined) data.child = options.child;
  if (options.deadline !== undefined) data.deadline = options.deadline;
  if (options.resources !== undefined && options.resources.length > 0) data.resources = options.resources;
  return data;
}

/**
 * Checks and parses job data.
 * @throws PayloadTooLargeError when `input` is longer than `maxPayloadBytes` (checked first, before parsing)
 * @throws InvalidRunInputError naming the field when the data does not have the {@link RunJobData} shape or `input` is not JSON
 */
export function decodeRunJobData(data: unknown, maxPayloadBytes: number): DecodedRunJob {
  const input = runJobDataSchema.shape.input.safeParse((data as { input?: unknown } | null)?.input);
  if (input.success) {
    const bytes = Buffer.byteLength(input.data, 'utf8');
    if (bytes > maxPayloadBytes) throw new PayloadTooLargeError(bytes, maxPayloadBytes);
  }
  const parsed = runJobDataSchema.safeParse(data);
  if (!parsed.success) throw new InvalidRunInputError(describeIssue(parsed.error));
  const { input: text, ...rest } = parsed.data;
  return { input: parseInput(text), ...rest };
}

function parseInput(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InvalidRunInputError(`\`input\` is not JSON (${(error as Error).message})`);
  }
}
