import { createRoute, z } from '@hono/zod-openapi';
import { defineApiRoute, errorResponses } from './api-route.js';

/**
 * `GET /metrics` → 200 with the scheduler's Prometheus metrics (text format 0.0.4). Behind the
 * bearer token like every route but `/healthz`: the scheduler's port is the public one.
 */
export const getMetrics = defineApiRoute(
  createRoute({
    method: 'get',
    path: '/metrics',
    summary: 'Prometheus metrics of this scheduler (requests, open SSE streams, process)',
    responses: {
      200: {
        description: 'The Prometheus text exposition format',
        content: { 'text/plain': { schema: z.string() } },
      },
      ...errorResponses(),
    },
  }),
  async (c) => {
    const { registry } = c.var.api.metrics;
    const text = await registry.metrics();
    return c.text(text, 200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
  },
);
