/**
 * Starts the scheduler app in the test process (its real HTTP server on a free loopback port)
 * on the file's Redis and key prefix, with a bearer token; closed after the file.
 */
import { type SchedulerApp, startSchedulerApp } from '@flotilla/scheduler';
import { afterAll, beforeAll } from 'vitest';
import type { RedisFixture } from '../../support/redis.js';

/** The token the scheduler of the app tests requires. */
export const API_TOKEN = 'app-tests-token-0123456789';

export interface SchedulerFixture {
  readonly app: SchedulerApp;
  /** e.g. `http://127.0.0.1:41234` */
  readonly url: string;
}

export function useScheduler(redis: RedisFixture, env: Record<string, string> = {}): SchedulerFixture {
  let app: SchedulerApp | undefined;
  beforeAll(async () => {
    app = await startSchedulerApp({
      REDIS_URL: redis.url,
      FLOTILLA_PREFIX: redis.prefix,
      FLOTILLA_SCHEDULER_PORT: '0',
      FLOTILLA_SCHEDULER_HOST: '127.0.0.1',
      FLOTILLA_API_TOKEN: API_TOKEN,
      LOG_LEVEL: 'silent',
      ...env,
    });
  });
  afterAll(async () => {
    await app?.close();
  });
  const need = (): SchedulerApp => {
    if (!app) throw new Error('useScheduler() is ready inside tests and hooks only');
    return app;
  };
  return {
    get app() {
      return need();
    },
    get url() {
      return `http://127.0.0.1:${need().port}`;
    },
  };
}
