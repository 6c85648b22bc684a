/**
 * Schedules through the scheduler's HTTP API (in this process) in front of a real worker app
 * process: `POST /schedules` (idempotent by id), `GET /schedules`, `DELETE /schedules/{id}`,
 * their errors, the firings under `GET /runs?scheduleId`, and all of it in `/openapi.json`.
 */
import { describe, expect, it } from 'vitest';
import { useRedis } from '../support/redis.js';
import { waitUntil } from '../support/wait-until.js';
import { call } from './support/http.js';
import { API_TOKEN, useScheduler } from './support/use-scheduler.js';
import { useWorkerProcess } from './support/use-worker-process.js';

const redis = useRedis(import.meta.filename);
useWorkerProcess(redis);
const scheduler = useScheduler(redis);

interface Schedule {
  id: string;
  agentId: string;
  everyMs?: number;
  served: boolean;
  nextRunAt?: number;
}

const request = <T>(method: string, path: string, body?: unknown) =>
  call<T & { error?: { name: string; message: string } }>(scheduler.url, method, path, {
    token: API_TOKEN,
    ...(body !== undefined && { body }),
  });

describe('POST /schedules', () => {
  it('saves a schedule whose firings are runs listed by scheduleId, and DELETE stops it', async () => {
    const body = { id: 'api-tick', agentId: 'chat', input: { message: 'tick' }, everyMs: 300 };
    const saved = await request<Schedule>('POST', '/schedules', body);
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ id: 'api-tick', agentId: 'chat', everyMs: 300 });
    expect((await request<Schedule>('POST', '/schedules', body)).status).toBe(200);
    const listed = await request<{ schedules: Schedule[] }>('GET', '/schedules');
    expect(listed.body.schedules.filter((schedule) => schedule.id === 'api-tick')).toHaveLength(1);
    const runs = await waitUntil(
      async () => {
        const page = await request<{ runs: { runId: string; scheduleId?: string; status: string }[] }>(
          'GET',
          '/runs?scheduleId=api-tick&status=succeeded',
        );
        return page.body.runs.length > 0 ? page.body.runs : undefined;
      },
      { what: 'a firing of the schedule' },
    );
    expect(runs[0]?.scheduleId).toBe('api-tick');
    const removed = await request('DELETE', '/schedules/api-tick');
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ id: 'api-tick', removed: true });
    const again = await request('DELETE', '/schedules/api-tick');
    expect(again.status).toBe(404);
    expect(again.body.error?.name).toBe('ScheduleNotFoundError');
  });

  it('shows a schedule of an agent no worker serves as not served', async () => {
    await request('POST', '/schedules', { id: 'nobody', agentId: 'no-such-agent', cron: '0 3 * * *' });
    const listed = await request<{ schedules: Schedule[] }>('GET', '/schedules');
    expect(listed.body.schedules.find((schedule) => schedule.id === 'nobody')).toMatchObject({
      served: false,
    });
    await request('DELETE', '/schedules/nobody');
  });

  it('answers 400 InvalidScheduleError naming what is wrong', async () => {
    const both = await request('POST', '/schedules', {
      id: 'bad',
      agentId: 'chat',
      cron: '* * * * *',
      everyMs: 500,
    });
    expect(both.status).toBe(400);
    expect(both.body.error?.name).toBe('InvalidScheduleError');
    const cron = await request('POST', '/schedules', { id: 'bad', agentId: 'chat', cron: 'every tuesday' });
    expect(cron.status).toBe(400);
    expect(cron.body.error?.message).toMatch(/cron/);
  });

  it('is described in /openapi.json', async () => {
    const document = await request<{ paths: Record<string, Record<string, unknown>> }>(
      'GET',
      '/openapi.json',
    );
    expect(Object.keys(document.body.paths['/schedules'] ?? {}).sort()).toEqual(['get', 'post']);
    expect(Object.keys(document.body.paths['/schedules/{id}'] ?? {})).toEqual(['delete']);
  });
});
