/**
 * The crash suite (`test/runtime/worker-crash.test.ts`) against a private 3-master Redis
 * Cluster: the same scenarios, real worker processes, `REDIS_URL=redis+cluster://…`.
 */
import { CLUSTER_SUITE_ENV } from '../support/redis.js';

process.env[CLUSTER_SUITE_ENV] = '1';
await import('../runtime/worker-crash.test.js');
