/**
 * Starts one worker app process for a test file, on the file's Redis and key prefix, serving
 * the examples module and the fixture agents; stopped after the file.
 */
import { afterAll, beforeAll } from 'vitest';
import type { RedisFixture } from '../../support/redis.js';
import { APP_AGENT_MODULES, startWorker, type WorkerProcess } from './worker-process.js';

/** The running worker process; read it inside tests and hooks. */
export interface WorkerProcessFixture {
  readonly process: WorkerProcess;
}

export function useWorkerProcess(
  redis: RedisFixture,
  env: Record<string, string> = {},
): WorkerProcessFixture {
  let worker: WorkerProcess | undefined;
  beforeAll(async () => {
    worker = await startWorker({
      REDIS_URL: redis.url,
      FLOTILLA_PREFIX: redis.prefix,
      FLOTILLA_AGENTS: APP_AGENT_MODULES,
      FLOTILLA_WORKER_CONCURRENCY: '4',
      FLOTILLA_SHUTDOWN_TIMEOUT_MS: '10000',
      LOG_LEVEL: 'info',
      ...env,
    });
  });
  afterAll(async () => {
    await worker?.stop();
  });
  return {
    get process() {
      if (!worker) throw new Error('useWorkerProcess() is ready inside tests and hooks only');
      return worker;
    },
  };
}
