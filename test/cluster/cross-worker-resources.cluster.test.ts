/**
 * The suite `test/resources/cross-worker-resources.test.ts` against a private 3-master Redis Cluster: the same scenarios,
 * real worker processes, `REDIS_URL=redis+cluster://…`.
 */
import { CLUSTER_SUITE_ENV } from '../support/redis.js';

process.env[CLUSTER_SUITE_ENV] = '1';
await import('../resources/cross-worker-resources.test.js');
