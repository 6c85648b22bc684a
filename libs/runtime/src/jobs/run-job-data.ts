/**
 * The data of a run's BullMQ job (job name = agent id, job id = run id), as one schema: what a
 * client or a calling run writes and what a worker accepts. Rules on job data belong in
 * {@link runJobDataSchema} (ids and text fields are bounded there); the value bounds (size,
 * depth: `json/json-bounds.ts`) are checked apart: `input` before and after it is parsed,
 * `scope` and the resource descriptors once the shape is known.
 */
import { z } from 'zod';
import { onConflictSchema } from '../gate/waiting-for.js';
import { checkJsonBounds, type JsonLimits, parseBoundedJson } from '../json/json-bounds.js';
import { MAX_INHERITED_LIMITS, MAX_INHERITED_PRICE_ENTRIES } from '../usage/budget-options.js';
import { describeIssue } from './describe-issue.js';
import { MAX_CALL_PATH_LENGTH, storedIdSchema } from './id-rule.js';
import { InvalidRunInputError } from './job-data-errors.js';
import { resourceDescriptorSchema } from './resource-descriptor-schema.js';
import { runPlacementSchema } from './run-placement-schema.js';

/** One scope layer: a JSON object (not an array). */
export const scopeLayerSchema = z.record(z.string(), z.unknown(), { error: 'must be an object' });

/** Scope layers, outermost first. */
export const scopeSchema = z.array(scopeLayerSchema, { error: 'must be an array of objects' });

const wholeCount = 'must be a whole number ≥ 0';

const positiveLimit = z
  .int({ error: 'must be a positive safe integer' })
  .min(1, { error: 'must be a positive safe integer' })
  .max(Number.MAX_SAFE_INTEGER, { error: 'must be a positive safe integer' });
const pricePerMillion = z
  .int({ error: 'must be a whole number of micro-USD per million tokens' })
  .min(0, { error: 'must be a whole number of micro-USD per million tokens' })
  .max(1_000_000_000_000, { error: 'must be at most 1e12 micro-USD per million tokens' });

/** What a child run inherits from its ancestors' `equipBudget` (`RunServices.budget`). */
const inheritedBudgetSchema = z.object(
  {
    limits: z
      .array(
        z.object({
          scope: z.string().regex(/^[0-9a-f]{16}$/, { error: 'must be 16 hex digits' }),
          setBy: z.string().min(1).max(MAX_CALL_PATH_LENGTH),
          maxTokens: positiveLimit.optional(),
          maxCostMicroUsd: positiveLimit.optional(),
        }),
      )
      .max(MAX_INHERITED_LIMITS, { error: `must hold at most ${MAX_INHERITED_LIMITS} limits` })
      .optional(),
    prices: z
      .record(
        z.string().min(1).max(500),
        z.object({
          inputMicroUsdPerMillionTokens: pricePerMillion,
          outputMicroUsdPerMillionTokens: pricePerMillion,
        }),
      )
      .refine((prices) => Object.keys(prices).length <= MAX_INHERITED_PRICE_ENTRIES, {
        error: `must hold at most ${MAX_INHERITED_PRICE_ENTRIES} models`,
      })
      .optional(),
  },
  { error: 'must be an object of usage limits and prices' },
);

/** Resources a child run may inherit. */
const MAX_RESOURCES = 256;

/**
 * A run's job data. `input` travels as JSON text so its size is checked before it is parsed;
 * conversations never travel in jobs, only their id.
 */
export const runJobDataSchema = z.object(
  {
    /** The agent's input as JSON text. */
    input: z.string({ error: 'must be JSON text' }),
    conversationId: storedIdSchema.optional(),
    /** With `conversationId`: the submission's `onConflict` (a worker fails a `reject` run that must wait). */
    onConflict: onConflictSchema.optional(),
    /**
     * With `conversationId`: the client gave the run's first attempt the conversation's lease at
     * submit (`ConversationGate.register`), when it was `empty` or `stored`: that attempt executes
     * without entering the gate. Workers of earlier versions drop the field and enter.
     */
    conversationLeased: z.enum(['empty', 'stored']).optional(),
    /** Scope layers, outermost first (for a child run: captured from its caller when it was enqueued). */
    scope: scopeSchema.optional(),
    /** For a child run (a BullMQ child job): its place in the tree. */
    child: runPlacementSchema.optional(),
    /** For a child run: resources its ancestors expose (filled by the resource registry). */
    resources: z
      .array(resourceDescriptorSchema, { error: 'must be an array of resource descriptors' })
      .max(MAX_RESOURCES, { error: `must hold at most ${MAX_RESOURCES} resource descriptors` })
      .optional(),
    /**
     * The run's deadline (epoch ms): from `submit(…, { timeoutMs })`, or for a child run its
     * parent's deadline. Every attempt on every worker enforces the same one (with the agent's
     * own `timeoutMs` counted from the job's creation, if sooner).
     */
    deadline: z.int({ error: 'must be a whole number of epoch milliseconds' }).min(0).optional(),
    /**
     * For a child run: the usage limits and prices its ancestors' `equipBudget` set (the
     * smallest limits, the merged price table), checked against the tree's spend before each
     * of its model calls.
     */
    budget: inheritedBudgetSchema.optional(),
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
  if (options.onConflict !== undefined && options.onConflict !== 'enqueue')
    data.onConflict = options.onConflict;
  if (options.scope !== undefined) data.scope = options.scope;
  if (options.child !== undefined) data.child = options.child;
  if (options.deadline !== undefined) data.deadline = options.deadline;
  if (options.resources !== undefined && options.resources.length > 0) data.resources = options.resources;
  if (options.budget !== undefined && Object.keys(options.budget).length > 0) data.budget = options.budget;
  return data;
}

/**
 * Checks and parses job data: `input` is measured before it is parsed, then the shape (ids and
 * text fields bounded), then the depth of `input` and the bounds of `scope` and `resources`.
 * @throws PayloadTooLargeError when `input` (or `scope`, or the resource descriptors) is larger than `limits.maxBytes`
 * @throws ValueTooDeepError when one of them is nested deeper than `limits.maxDepth`
 * @throws InvalidRunInputError naming the field when the data does not have the {@link RunJobData} shape or `input` is not JSON
 */
export function decodeRunJobData(data: unknown, limits: JsonLimits): DecodedRunJob {
  const only = inputAlone(data);
  if (only !== undefined) return { input: parseInput(only, limits) };
  const text = runJobDataSchema.shape.input.safeParse((data as { input?: unknown } | null)?.input);
  const input = text.success ? parseInput(text.data, limits) : undefined;
  const parsed = runJobDataSchema.safeParse(data);
  if (!parsed.success) throw new InvalidRunInputError(describeIssue(parsed.error));
  const { input: _text, ...rest } = parsed.data;
  if (rest.scope !== undefined) checkJsonBounds(rest.scope, 'the run scope', limits);
  if (rest.resources !== undefined)
    checkJsonBounds(rest.resources, 'the inherited resource descriptors', limits);
  return { input, ...rest };
}

/**
 * The input text of job data that holds nothing else (a root run submitted without options: the
 * most common job), which the schema would accept as it is: no schema pass for it (its
 * objects, ~2 KB per run). `undefined` for any other data, which the schema checks.
 */
function inputAlone(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  const { input } = data as { input?: unknown };
  if (typeof input !== 'string') return undefined;
  const keys = Object.keys(data);
  return keys.length === 1 && keys[0] === 'input' ? input : undefined;
}

function parseInput(text: string, limits: JsonLimits): unknown {
  try {
    return parseBoundedJson(text, 'the run input', limits);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    throw new InvalidRunInputError(`\`input\` is not JSON (${error.message})`);
  }
}
