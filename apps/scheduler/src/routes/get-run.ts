import { RunNotFoundError } from '@flotilla/runtime/client';
import { createRoute } from '@hono/zod-openapi';
import { clientFor } from '../http/client-for.js';
import { withPublicError } from '../http/public-error.js';
import { defineApiRoute, errorResponses, jsonContent, runIdParamsSchema } from './api-route.js';
import { runRecordSchema } from './run-schemas.js';

/** `GET /runs/{id}` → 200 with the run record (its error without a stack), or 404 `RunNotFoundError`. */
export const getRun = defineApiRoute(
  createRoute({
    method: 'get',
    path: '/runs/{id}',
    summary: 'Read a run record',
    request: { params: runIdParamsSchema },
    responses: { 200: jsonContent(runRecordSchema, 'The run record'), ...errorResponses(404) },
  }),
  async (c) => {
    const { id } = c.req.valid('param');
    const record = await clientFor(c).getRun(id);
    if (!record) throw new RunNotFoundError(id);
    return c.json(withPublicError(record), 200);
  },
);
