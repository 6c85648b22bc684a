import type { WorkerInfo } from '@flotilla/runtime/client';
import { createRoute, z } from '@hono/zod-openapi';
import { clientFor } from '../http/client-for.js';
import { defineApiRoute, errorResponses, jsonContent } from './api-route.js';

/** Every field of {@link WorkerInfo}, typed against it (a new field fails the build until described). */
const workerShape = {
  workerId: z.string().openapi({ description: 'Unique per worker process start' }),
  host: z.string(),
  pid: z.int(),
  agents: z.array(z.string()).openapi({ description: 'The agents it serves (the queues it consumes)' }),
  buildId: z.string().optional().openapi({ description: 'Its `FLOTILLA_BUILD_ID`, when set' }),
  versioning: z.literal('pinned').optional().openapi({
    description: "'pinned' when it pins the runs it takes first to its build (`FLOTILLA_VERSIONING`)",
  }),
  compatibleWith: z.array(z.string()).optional().openapi({
    description: 'Other builds whose pinned runs it resumes (`FLOTILLA_COMPATIBLE_WITH`)',
  }),
  draining: z.array(z.string()).optional().openapi({
    description:
      'Agents whose new runs it leaves to a newer build during a rolling deploy (it resumes its pinned runs only)',
  }),
  concurrency: z.int().openapi({ description: 'Runs it executes at once, at most' }),
  activeRuns: z.int().openapi({ description: 'Runs it executed at its latest heartbeat' }),
  startedAt: z.number().openapi({ description: 'Epoch ms' }),
  heartbeatAt: z.number().openapi({ description: 'Its latest heartbeat, epoch ms (Redis time)' }),
  expiresAt: z
    .number()
    .openapi({ description: 'When it drops out unless it beats again, epoch ms (Redis time)' }),
} satisfies Record<keyof WorkerInfo, z.ZodType>;

const workerListSchema = z
  .object({ workers: z.array(z.object(workerShape).openapi('Worker')) })
  .openapi('WorkerList');

/**
 * `GET /workers` → 200 `{ workers }`: the live workers of the fleet from the worker registry
 * (each beats every second and drops out 5 s after its last heartbeat). Workers serve agents,
 * not tenants: every principal sees the same list.
 */
export const getWorkers = defineApiRoute(
  createRoute({
    method: 'get',
    path: '/workers',
    summary: 'List the live workers (agents served, concurrency, active runs, heartbeat)',
    responses: { 200: jsonContent(workerListSchema, 'The live workers, by id'), ...errorResponses() },
  }),
  async (c) => c.json({ workers: await clientFor(c).listWorkers() }, 200),
);
