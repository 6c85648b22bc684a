/**
 * What a submission carries, as one schema: checked by `client.submit` before anything is
 * written to Redis, and by the scheduler's `POST /runs`. Rules on submissions (id rules, sizes,
 * tenants) belong in {@link submitRequestSchema}.
 */
import { z } from 'zod';
import { onConflictSchema } from '../gate/waiting-for.js';
import { describeIssue } from '../jobs/describe-issue.js';
import { idSchema, submittedRunIdSchema } from '../jobs/id-rule.js';
import { scopeSchema } from '../jobs/run-job-data.js';
import { checkJsonBounds, DEFAULT_JSON_LIMITS, type JsonLimits } from '../json/json-bounds.js';
import { InvalidSubmitRequestError } from './invalid-submit-request-error.js';

/** The longest a submission may delay its run (a year). */
export const MAX_START_DELAY_MS = 365 * 24 * 3600 * 1000;

export const submitRequestSchema = z.object(
  {
    /** The agent to run (BullMQ job name). */
    agentId: idSchema,
    /** The agent's input, any JSON. @default null (the agent then receives `{}`) */
    input: z.unknown().default(null),
    /**
     * The run id (= BullMQ job id): submitting the same submission twice makes one run, another
     * submission with the same id fails with `RunIdConflictError`. Not only digits, not ending
     * like a child run's id (`.` and 16 hex digits). @default a random UUID
     */
    runId: submittedRunIdSchema.optional(),
    /** Resume (or start) this stored conversation: the run loads its history and appends its turns to it. */
    conversationId: idSchema.optional(),
    /**
     * With a `conversationId`: what to do when another run holds the conversation or waits for
     * it (see `OnConflict`). Runs on one conversation run one at a time, in submission order.
     * @default 'enqueue'
     */
    onConflict: onConflictSchema.optional(),
    /** Scope layers for every agent of the run, outermost first (JSON objects). */
    scope: scopeSchema.optional(),
    /**
     * The run's deadline, in ms from now (from its start time with `delayMs` / `runAt`): past it the run (and its child runs) ends `failed` with
     * `RunTimeoutError`. The agent's own `timeoutMs`, if smaller, wins. @default the agent's, else none
     */
    timeoutMs: z
      .int({ error: 'must be a whole number of milliseconds ≥ 1' })
      .min(1, { error: 'must be a whole number of milliseconds ≥ 1' })
      .optional(),
    /**
     * Start the run no earlier than this many ms from now (its job waits in BullMQ's delayed set,
     * its record says `queued`). Not with `runAt`. @default 0
     */
    delayMs: z
      .int({ error: 'must be a whole number of milliseconds ≥ 0' })
      .min(0, { error: 'must be a whole number of milliseconds ≥ 0' })
      .max(MAX_START_DELAY_MS, { error: 'must be at most a year' })
      .optional(),
    /** Start the run no earlier than this time (epoch ms; a time past starts it now). Not with `delayMs`. */
    runAt: z.int({ error: 'must be a time in epoch milliseconds' }).min(0).max(8.64e15).optional(),
  },
  {
    error:
      'the submission must be an object: { agentId, input, runId?, conversationId?, onConflict?, scope?, timeoutMs?, delayMs?, runAt? }',
  },
);

/** A checked submission. */
export type SubmitRequest = z.infer<typeof submitRequestSchema>;

/**
 * Checks a submission: its shape, then the bounds of `input` and `scope` (the same limits a
 * worker applies, so a run the client accepts is not refused by the worker for its size).
 * @throws InvalidSubmitRequestError naming the first field that is wrong
 * @throws ValueTooDeepError, PayloadTooLargeError or NotJsonError naming `input` or `scope`
 */
export function parseSubmitRequest(value: unknown, limits: JsonLimits = DEFAULT_JSON_LIMITS): SubmitRequest {
  const parsed = submitRequestSchema.safeParse(value);
  if (!parsed.success) {
    const field = parsed.error.issues[0]?.path.map(String).join('.') ?? '';
    throw new InvalidSubmitRequestError(field, describeIssue(parsed.error));
  }
  if (parsed.data.onConflict !== undefined && parsed.data.conversationId === undefined) {
    throw new InvalidSubmitRequestError('onConflict', '`onConflict` applies to runs with a `conversationId`');
  }
  if (parsed.data.delayMs !== undefined && parsed.data.runAt !== undefined)
    throw new InvalidSubmitRequestError('runAt', 'give `delayMs` or `runAt`, not both');
  if (parsed.data.runAt !== undefined && parsed.data.runAt - Date.now() > MAX_START_DELAY_MS)
    throw new InvalidSubmitRequestError('runAt', 'must be at most a year from now');
  // Lenient: the job carries what JSON.stringify writes (a Date as its text), as it always did.
  checkJsonBounds(parsed.data.input, 'the run input', limits, { lenient: true });
  if (parsed.data.scope !== undefined)
    checkJsonBounds(parsed.data.scope, 'the run scope', limits, { lenient: true });
  return parsed.data;
}

/** When a checked submission's run may start (epoch ms): now, `delayMs` from now, or `runAt`. */
export function startTimeOf(request: Pick<SubmitRequest, 'delayMs' | 'runAt'>, now = Date.now()): number {
  if (request.runAt !== undefined) return Math.max(now, request.runAt);
  return now + (request.delayMs ?? 0);
}
