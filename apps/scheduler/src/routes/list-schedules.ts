import { createRoute } from '@hono/zod-openapi';
import { clientFor } from '../http/client-for.js';
import { defineApiRoute, errorResponses, jsonContent } from './api-route.js';
import { scheduleListSchema } from './schedule-schemas.js';

/** `GET /schedules` → 200 `{ schedules }`: the caller's tenant's schedules by id, with their next firing and `served`. */
export const listSchedules = defineApiRoute(
  createRoute({
    method: 'get',
    path: '/schedules',
    summary: 'List the schedules (next firing, whether a worker serves the agent)',
    responses: { 200: jsonContent(scheduleListSchema, 'The schedules, by id'), ...errorResponses() },
  }),
  async (c) => c.json({ schedules: await clientFor(c).listSchedules() }, 200),
);
