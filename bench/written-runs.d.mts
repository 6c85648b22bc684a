// Types of `written-runs.mjs`, for the test suites that write runs without a worker.
import type { Redis } from 'ioredis';

export function emitGeneration(
  redis: Redis,
  prefix: string,
  runId: string,
  generation: number,
): Promise<void>;
