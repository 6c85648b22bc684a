/**
 * The suite `test/runtime/run-list.test.ts` against a private 3-master Redis Cluster: the run list
 * indexes (`index-runs-1`, one call per tenant's hash tag) written and paged through on a cluster.
 */
import { CLUSTER_SUITE_ENV } from '../support/redis.js';

process.env[CLUSTER_SUITE_ENV] = '1';
await import('../runtime/run-list.test.js');
