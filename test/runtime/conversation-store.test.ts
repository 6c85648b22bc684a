import { RedisConversationStore } from '@flotilla/runtime/internals';
import { InMemoryConversationStore } from '@flotilla/runtime/testing';
import { useRedis } from '../support/redis.js';
import { describeConversationStore } from './conversation-store-conformance.js';

const redis = useRedis(import.meta.filename);

describeConversationStore('in-memory', () => new InMemoryConversationStore());
describeConversationStore(
  'Redis',
  () => new RedisConversationStore({ redis: redis.redis, prefix: redis.prefix }),
);
