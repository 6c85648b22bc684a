/**
 * The suite `test/runtime/shared-event-reads.test.ts` against a private 3-master Redis Cluster:
 * many awaited runs on one subscriber connection per master, woken by sharded notices.
 */
import { CLUSTER_SUITE_ENV } from '../support/redis.js';

process.env[CLUSTER_SUITE_ENV] = '1';
await import('../runtime/shared-event-reads.test.js');
