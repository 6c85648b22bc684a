import { createRoute, z } from '@hono/zod-openapi';
import { clientFor } from '../http/client-for.js';
import { defineApiRoute, jsonContent } from './api-route.js';

/** How long `/healthz` waits for Redis' PING. */
const HEALTH_PING_MS = 1000;

const healthSchema = z
  .object({
    healthy: z.boolean(),
    redis: z.string().openapi({ description: '`ok`, or why Redis did not answer' }),
  })
  .openapi('Health');

/**
 * `GET /healthz` (and `HEAD`), without a token → 200 `{ healthy: true, redis: 'ok' }` when
 * Redis answers a PING within a second, else 503 `{ healthy: false, redis: <reason> }`: the API
 * cannot serve a request without Redis, so a load balancer should not send it any.
 */
export const getHealth = defineApiRoute(
  createRoute({
    method: 'get',
    path: '/healthz',
    summary: 'Liveness and Redis reachability (no token needed)',
    security: [],
    responses: {
      200: jsonContent(healthSchema, 'Serving; Redis answers'),
      503: jsonContent(healthSchema, 'Redis does not answer'),
    },
  }),
  async (c) => {
    try {
      await clientFor(c).ping(HEALTH_PING_MS);
      return c.json({ healthy: true, redis: 'ok' }, 200);
    } catch (error) {
      return c.json({ healthy: false, redis: (error as Error).message }, 503);
    }
  },
);
