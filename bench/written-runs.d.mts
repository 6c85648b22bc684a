// Types of `written-runs.mjs`, for the test suites that write runs without a worker.
import type { RedisRunRecords } from '@flotilla/runtime/internals';
import type { Redis } from 'ioredis';

export function emitGeneration(
  redis: Redis,
  prefix: string,
  runId: string,
  generation: number,
): Promise<void>;
export function endRun(records: RedisRunRecords, runId: string, output: unknown): Promise<boolean>;
