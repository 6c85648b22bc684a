/**
 * The suite `test/waits/approvals.test.ts` against a private 3-master Redis Cluster: durable waits'
 * approvals (parallel calls, a killed worker, a child under its parent, a kept conversation), real worker processes, `REDIS_URL=redis+cluster://…`.
 */
import { CLUSTER_SUITE_ENV } from '../support/redis.js';

process.env[CLUSTER_SUITE_ENV] = '1';
await import('../waits/approvals.test.js');
