import { isTerminalStatus, RunNotFoundError } from '@flotilla/runtime/client';
import { createRoute } from '@hono/zod-openapi';
import { RunAlreadyEndedError } from '../errors/http-errors.js';
import { clientFor } from '../http/client-for.js';
import { defineApiRoute, errorResponses, jsonContent, runIdParamsSchema } from './api-route.js';
import { cancelledRunSchema } from './run-schemas.js';

/**
 * `POST /runs/{id}/cancel` → 202 `{ runId, status }`. A queued run is cancelled at once; a
 * running one is aborted by its worker soon after (follow `/runs/{id}/events` to `run-end`).
 * 409 `RunAlreadyEndedError` for a run that already ended, 404 `RunNotFoundError` for an unknown id.
 */
export const cancelRun = defineApiRoute(
  createRoute({
    method: 'post',
    path: '/runs/{id}/cancel',
    summary: 'Cancel a run and its child runs',
    request: { params: runIdParamsSchema },
    responses: { 202: jsonContent(cancelledRunSchema, 'Cancel requested'), ...errorResponses(404, 409) },
  }),
  async (c) => {
    const { id } = c.req.valid('param');
    const client = clientFor(c);
    const before = await client.getRun(id);
    if (!before) throw new RunNotFoundError(id);
    if (isTerminalStatus(before.status)) throw new RunAlreadyEndedError(id, before.status);
    await client.cancel(id);
    const record = await client.getRun(id);
    c.var.api.logger.info({ runId: id, status: record?.status }, 'run cancel requested');
    return c.json({ runId: id, status: record?.status }, 202);
  },
);
