import { createRoute } from '@hono/zod-openapi';
import { clientFor } from '../http/client-for.js';
import { defineApiRoute, errorResponses, jsonContent } from './api-route.js';
import { submitRunBodySchema, submittedRunSchema } from './run-schemas.js';

/**
 * `POST /runs` → 202 `{ runId }`: queues a run (idempotent by `runId`). The input and scope are
 * checked against the same limits workers apply (`FLOTILLA_MAX_PAYLOAD_BYTES`,
 * `FLOTILLA_MAX_JSON_DEPTH`), so a run accepted here is not refused by a worker for its size.
 */
export const submitRun = defineApiRoute(
  createRoute({
    method: 'post',
    path: '/runs',
    summary: 'Queue a run',
    request: {
      body: { required: true, content: { 'application/json': { schema: submitRunBodySchema } } },
    },
    responses: {
      202: {
        ...jsonContent(submittedRunSchema, 'Queued (or already submitted with this runId)'),
        headers: { Location: { schema: { type: 'string' }, description: '/runs/{runId}' } },
      },
      ...errorResponses(408, 409, 413, 415),
    },
  }),
  async (c) => {
    const { agentId, input, ...options } = c.req.valid('json');
    const run = await clientFor(c).submit(agentId, input, options);
    c.var.api.logger.info({ runId: run.id, agentId }, 'run submitted');
    c.header('location', `/runs/${encodeURIComponent(run.id)}`);
    return c.json({ runId: run.id }, 202);
  },
);
