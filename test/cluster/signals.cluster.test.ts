/**
 * The suite `test/waits/signals.test.ts` against a private 3-master Redis Cluster: durable waits'
 * signals (queued, deduplicated, schema-checked, timed out), real worker processes, `REDIS_URL=redis+cluster://…`.
 */
import { CLUSTER_SUITE_ENV } from '../support/redis.js';

process.env[CLUSTER_SUITE_ENV] = '1';
await import('../waits/signals.test.js');
