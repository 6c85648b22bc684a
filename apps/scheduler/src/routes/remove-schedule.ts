import { createRoute } from '@hono/zod-openapi';
import { ScheduleNotFoundError } from '../errors/http-errors.js';
import { clientFor } from '../http/client-for.js';
import { defineApiRoute, errorResponses, jsonContent } from './api-route.js';
import { removedScheduleSchema, scheduleIdParamsSchema } from './schedule-schemas.js';

/** `DELETE /schedules/{id}` → 200 `{ id, removed: true }`: no more firings; 404 `ScheduleNotFoundError`. */
export const removeSchedule = defineApiRoute(
  createRoute({
    method: 'delete',
    path: '/schedules/{id}',
    summary: 'Remove a schedule (runs already fired go on)',
    request: { params: scheduleIdParamsSchema },
    responses: { 200: jsonContent(removedScheduleSchema, 'Removed'), ...errorResponses(404) },
  }),
  async (c) => {
    const { id } = c.req.valid('param');
    if (!(await clientFor(c).removeSchedule(id))) throw new ScheduleNotFoundError(id);
    c.var.api.logger.info({ scheduleId: id }, 'schedule removed');
    return c.json({ id, removed: true as const }, 200);
  },
);
