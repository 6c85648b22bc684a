import { MAX_RUN_LIST_LIMIT } from '@flotilla/runtime/client';
import { createRoute, z } from '@hono/zod-openapi';
import { clientFor } from '../http/client-for.js';
import { withPublicError } from '../http/public-error.js';
import { defineApiRoute, errorResponses, jsonContent } from './api-route.js';
import { runListSchema } from './run-schemas.js';

const text = (description: string) => z.string().max(400).optional().openapi({ description });
const time = (description: string) =>
  z.coerce.number().int().min(0).optional().openapi({ description, example: 1718000000000 });

/**
 * The query of `GET /runs`: strings coerced to the runtime's query (`listRunsQuerySchema`),
 * which checks every rule once more (ids, statuses, the cursor) and answers
 * `InvalidRunQueryError` (400) naming the field.
 */
const listRunsQuery = z.strictObject({
  status: z
    .enum(['queued', 'running', 'waiting', 'succeeded', 'failed', 'cancelled'])
    .optional()
    .openapi({ description: 'Only runs in this status' }),
  agentId: text('Only runs of this agent'),
  rootRunId: text('Only the runs of this tree (the root included)'),
  conversationId: text('Only runs on this conversation'),
  scheduleId: text('Only the firings of this schedule'),
  tenant: text("Only this tenant's runs (a token without a tenant only)"),
  createdAfter: time('Only runs created after this epoch ms (exclusive)'),
  createdBefore: time('Only runs created before this epoch ms (exclusive)'),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_RUN_LIST_LIMIT)
    .optional()
    .openapi({ description: `At most this many runs (1 to ${MAX_RUN_LIST_LIMIT})`, example: 50 }),
  cursor: text('The `nextCursor` of the previous page'),
});

/**
 * `GET /runs?status&agentId&rootRunId&conversationId&scheduleId&tenant&createdAfter&createdBefore&limit&cursor`
 * → 200 `{ runs, nextCursor? }`, newest first, from the run list indexes. A named token with a
 * tenant lists its tenant's runs only (its ids); `tenant` is for the token without one.
 */
export const listRuns = defineApiRoute(
  createRoute({
    method: 'get',
    path: '/runs',
    summary: 'List runs, newest first',
    request: { query: listRunsQuery },
    responses: { 200: jsonContent(runListSchema, 'A page of run records'), ...errorResponses() },
  }),
  async (c) => {
    const query = c.req.valid('query');
    const defined = Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined));
    const list = await clientFor(c).listRuns(defined);
    return c.json({ ...list, runs: list.runs.map((record) => withPublicError(record)) }, 200);
  },
);
