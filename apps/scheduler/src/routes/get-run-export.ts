import { RunNotFoundError } from '@flotilla/runtime/client';
import { createRoute, z } from '@hono/zod-openapi';
import { clientFor } from '../http/client-for.js';
import { defineApiRoute, errorResponses, jsonContent, runIdParamsSchema } from './api-route.js';

/** `GET /runs/{id}/export`: a run export (`client.exportRun`), described loosely (it is checked by `parseRunExport`). */
const runExportSchema = z
  .looseObject({
    format: z.literal('flotilla.run-export'),
    version: z.literal(1),
    exportedAt: z.number(),
    run: z.looseObject({
      runId: z.string(),
      agentId: z.string(),
      status: z.string(),
      buildId: z.string().optional(),
    }),
    input: z.unknown(),
    journal: z.array(
      z.looseObject({
        position: z.string(),
        entry: z.looseObject({ kind: z.string(), fingerprint: z.string() }),
      }),
    ),
    children: z.array(
      z.looseObject({ position: z.string(), runId: z.string(), agentId: z.string(), status: z.string() }),
    ),
    memory: z.record(z.string(), z.record(z.string(), z.unknown())),
  })
  .openapi('RunExport', {
    description:
      'Everything replayRun (@flotilla/runtime/testing) needs to replay current code against the run: input, ' +
      'journal, child run outcomes, stored memory, build. At most 64 MiB.',
  });

/**
 * `GET /runs/{id}/export` → 200 with the run as a run export (`flotilla runs export`), 404
 * `RunNotFoundError`, 409 `RunNotExportableError` (not started yet), 413 `RunExportTooLargeError`.
 * Tenant-scoped like every run route.
 */
export const getRunExport = defineApiRoute(
  createRoute({
    method: 'get',
    path: '/runs/{id}/export',
    summary: 'Export a run to replay it against new code',
    request: { params: runIdParamsSchema },
    responses: { 200: jsonContent(runExportSchema, 'The run export'), ...errorResponses(404, 409, 413) },
  }),
  async (c) => {
    const { id } = c.req.valid('param');
    const exported = await clientFor(c).exportRun(id);
    if (!exported) throw new RunNotFoundError(id);
    return c.json(exported, 200);
  },
);
