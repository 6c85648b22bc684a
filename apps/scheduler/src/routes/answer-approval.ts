import { approvalAnswerInputSchema } from '@flotilla/runtime/client';
import { ID_PATTERN, ID_RULE, RUN_ID_PATTERN } from '@flotilla/runtime/internals';
import { createRoute, z } from '@hono/zod-openapi';
import { clientFor } from '../http/client-for.js';
import { defineApiRoute, errorResponses, jsonContent } from './api-route.js';

const approvalParamsSchema = z.object({
  id: z
    .string()
    .regex(RUN_ID_PATTERN, { error: `must be a run id (${ID_RULE})` })
    .openapi({ param: { name: 'id', in: 'path' }, example: 'run-1' }),
  callId: z
    .string()
    .regex(ID_PATTERN, { error: `must be a tool call id (${ID_RULE})` })
    .openapi({ param: { name: 'callId', in: 'path' }, example: 'call_1' }),
});

/**
 * The body: the runtime's own schema (approved: run the tool, with `args` instead of the model's
 * when given; rejected: the model reads `reason`), so the rule lives in one place.
 */
const approvalBodySchema = approvalAnswerInputSchema;

const answeredApprovalSchema = z
  .object({
    runId: z.string(),
    callId: z.string(),
    outcome: z.enum(['answered', 'already-answered']),
  })
  .openapi('AnsweredApproval');

/**
 * `POST /runs/{id}/approvals/{callId}` → 200 `{ runId, callId, outcome }`: answers the approval
 * a tool call of the run awaits. 400 for a malformed answer, 404 `UnknownApprovalError` when the
 * run asked no approval of that call (or `RunNotFoundError`), 409 when it was answered
 * differently before (`ApprovalAlreadyAnsweredError`) or the run ended (`RunEndedError`).
 */
export const answerApproval = defineApiRoute(
  createRoute({
    method: 'post',
    path: '/runs/{id}/approvals/{callId}',
    summary: 'Approve or reject a tool call that awaits approval',
    request: {
      params: approvalParamsSchema,
      body: { required: true, content: { 'application/json': { schema: approvalBodySchema } } },
    },
    responses: {
      200: jsonContent(answeredApprovalSchema, 'Answered (or the same answer again)'),
      ...errorResponses(404, 408, 409, 413, 415),
    },
  }),
  async (c) => {
    const { id, callId } = c.req.valid('param');
    const answer = c.req.valid('json');
    const outcome = await clientFor(c).approve(id, callId, answer);
    c.var.api.logger.info({ runId: id, callId, approved: answer.approved, outcome }, 'approval answered');
    return c.json({ runId: id, callId, outcome }, 200);
  },
);
