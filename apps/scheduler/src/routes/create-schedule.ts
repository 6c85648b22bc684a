import { createRoute } from '@hono/zod-openapi';
import { clientFor } from '../http/client-for.js';
import { defineApiRoute, errorResponses, jsonContent } from './api-route.js';
import { scheduleBodySchema, scheduleSchema } from './schedule-schemas.js';

/**
 * `POST /schedules` → 200 the saved schedule: creates or replaces (by `id`) a schedule that fires
 * a run of `agentId` on `cron` or every `everyMs` (BullMQ job schedulers). 400
 * `InvalidScheduleError` naming the field when it breaks a rule.
 */
export const createSchedule = defineApiRoute(
  createRoute({
    method: 'post',
    path: '/schedules',
    summary: 'Create or replace a schedule (idempotent by id)',
    request: {
      body: { required: true, content: { 'application/json': { schema: scheduleBodySchema } } },
    },
    responses: { 200: jsonContent(scheduleSchema, 'The saved schedule'), ...errorResponses(408, 413, 415) },
  }),
  async (c) => {
    const schedule = await clientFor(c).schedule(c.req.valid('json'));
    c.var.api.logger.info({ scheduleId: schedule.id, agentId: schedule.agentId }, 'schedule saved');
    return c.json(schedule, 200);
  },
);
