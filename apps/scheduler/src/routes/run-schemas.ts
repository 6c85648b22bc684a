import type { RunRecord } from '@flotilla/runtime/client';
import { submitRequestSchema } from '@flotilla/runtime/client';
import { z } from '@hono/zod-openapi';

/**
 * The body of `POST /runs`: the runtime's `submitRequestSchema` itself, so a field added to
 * submissions (and its rule) is accepted and documented here without a change.
 */
export const submitRunBodySchema = submitRequestSchema;

const usageSchema = z.object({
  promptTokens: z.number(),
  completionTokens: z.number(),
  totalTokens: z.number(),
  details: z.record(z.string(), z.number()).optional(),
});

const storedErrorSchema = z
  .object({
    name: z.string(),
    message: z.string(),
    data: z.record(z.string(), z.unknown()).optional(),
    get cause() {
      return storedErrorSchema.optional();
    },
  })
  .openapi('RunError', { description: 'A typed error: name, message, fields; never a stack.' });

/**
 * Every field of {@link RunRecord}, typed against it: a field added to the record type (e.g.
 * `waitingFor`) fails the build here until it is described, so the answer and the document
 * keep up with the runtime.
 */
const runRecordShape = {
  runId: z.string(),
  agentId: z.string(),
  status: z.enum(['queued', 'running', 'waiting', 'succeeded', 'failed', 'cancelled']),
  conversationId: z.string().optional(),
  scheduleId: z.string().optional().openapi({
    description: "For a schedule's firing: the schedule's id (filter with `GET /runs?scheduleId`)",
  }),
  tenant: z
    .string()
    .optional()
    .openapi({ description: "The tenant whose run it is (a named token's tenant)" }),
  waitingFor: z.object({ kind: z.string(), detail: z.string() }).optional().openapi({
    description:
      "What the run waits for: kind 'conversation', 'worker', 'concurrency' (its agent's cap), 'rate-limit' (a model call waits for its fleet-wide budget), 'approval', 'signal', 'sleep' or 'build' (a pinned run no live worker of its build, or a compatible one, can resume; detail: the build)",
  }),
  waits: z
    .array(
      z.object({
        waitingFor: z.object({ kind: z.string(), detail: z.string() }),
        wakeAt: z.number().optional(),
        info: z.record(z.string(), z.unknown()).optional(),
      }),
    )
    .optional()
    .openapi({
      description:
        'While the run waits on durable waits: each of them, with what a person needs to answer it ' +
        '(approval: `{ callId, tool, args }`, signal: `{ name, schema? }`, sleep: `{ until }`)',
    }),
  parentRunId: z.string().optional(),
  rootRunId: z.string().optional(),
  callPath: z.string().optional(),
  fingerprint: z.string().optional(),
  buildId: z
    .string()
    .optional()
    .openapi({ description: 'The build (`FLOTILLA_BUILD_ID`) of the worker that first started the run' }),
  pinnedBuild: z.string().optional().openapi({
    description:
      'The build the run is pinned to (`FLOTILLA_VERSIONING=pinned`): it resumes only on workers of that build or a compatible one',
  }),
  output: z.unknown().optional(),
  progress: z
    .unknown()
    .optional()
    .openapi({ description: 'The latest value the run reported with `reportProgress` (JSON)' }),
  error: storedErrorSchema.optional(),
  usage: usageSchema,
  modelCalls: z.int(),
  attempts: z.int(),
  createdAt: z.number(),
  startedAt: z.number().optional(),
  endedAt: z.number().optional(),
} satisfies Record<keyof RunRecord, z.ZodType>;

/** `GET /runs/{id}`: the run record (fields the runtime adds later pass through). */
export const runRecordSchema = z.looseObject(runRecordShape).openapi('RunRecord');

/** `GET /runs`: a page of run records, newest first, and the cursor of the next page. */
export const runListSchema = z
  .object({
    runs: z.array(runRecordSchema),
    nextCursor: z
      .string()
      .optional()
      .openapi({ description: 'Pass as `cursor` for the next page; absent at the end' }),
  })
  .openapi('RunList');

interface TreeNode {
  children: TreeNode[];
}

/** One run of a tree (`GET /runs/{id}/tree`), its child runs nested. */
const runTreeNodeSchema: z.ZodType<TreeNode> = z
  .looseObject({
    runId: z.string(),
    agentId: z.string(),
    status: runRecordShape.status,
    callPath: z.string().optional(),
    waitingFor: runRecordShape.waitingFor,
    attempts: z.int(),
    modelCalls: z.int(),
    usage: usageSchema,
    createdAt: z.number(),
    startedAt: z.number().optional(),
    endedAt: z.number().optional(),
    durationMs: z.number().optional(),
    progress: runRecordShape.progress,
    get children() {
      return z.array(runTreeNodeSchema);
    },
  })
  .openapi('RunTreeNode');

/** `GET /runs/{id}/tree`: the nested tree; `truncated` when it had more runs than asked for. */
export const runTreeSchema = z
  .object({ root: runTreeNodeSchema, nodeCount: z.int(), truncated: z.boolean() })
  .openapi('RunTree');

/** `POST /runs`: the run id. */
export const submittedRunSchema = z.object({ runId: z.string() }).openapi('SubmittedRun');

/** `POST /runs/{id}/cancel`: the run id and its status right after the cancel. */
export const cancelledRunSchema = z
  .object({ runId: z.string(), status: runRecordShape.status.optional() })
  .openapi('CancelledRun');
