import { RunNotFoundError } from '@flotilla/runtime/client';
import { createRoute, z } from '@hono/zod-openapi';
import { clientFor } from '../http/client-for.js';
import { defineApiRoute, errorResponses, jsonContent, runIdParamsSchema } from './api-route.js';
import { runTreeSchema } from './run-schemas.js';

const treeQuery = z.strictObject({
  maxNodes: z.coerce
    .number()
    .int()
    .min(1)
    .max(5000)
    .optional()
    .openapi({ description: 'At most this many runs (1 to 5000, default 1000)', example: 1000 }),
});

/**
 * `GET /runs/{id}/tree` → 200 with the run and every child run below it, nested (agent, status,
 * waitingFor, attempts, model calls, usage, duration, progress), or 404 `RunNotFoundError`.
 */
export const getRunTree = defineApiRoute(
  createRoute({
    method: 'get',
    path: '/runs/{id}/tree',
    summary: 'Read a run tree',
    request: { params: runIdParamsSchema, query: treeQuery },
    responses: { 200: jsonContent(runTreeSchema, 'The run tree'), ...errorResponses(404) },
  }),
  async (c) => {
    const { id } = c.req.valid('param');
    const { maxNodes } = c.req.valid('query');
    const tree = await clientFor(c).getRunTree(id, maxNodes === undefined ? {} : { maxNodes });
    if (!tree) throw new RunNotFoundError(id);
    return c.json(tree, 200);
  },
);
