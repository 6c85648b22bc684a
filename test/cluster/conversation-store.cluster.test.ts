/**
 * The conversation store conformance suite (`test/runtime/conversation-store.test.ts`) against a private 3-master Redis
 * Cluster: every append script call and load keeps to the conversation's hash tag.
 */
import { CLUSTER_SUITE_ENV } from '../support/redis.js';

process.env[CLUSTER_SUITE_ENV] = '1';
await import('../runtime/conversation-store.test.js');
