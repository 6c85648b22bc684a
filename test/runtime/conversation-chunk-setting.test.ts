/**
 * `conversationChunkBytes: 0` (`FLOTILLA_CONVERSATION_CHUNK_BYTES=0`) makes a worker store one
 * message per list entry, the layout versions before `append-conversation-7` read: what an
 * operator sets during a rolling deploy from such a version.
 */
import { randomUUID } from 'node:crypto';
import { conversationKeys } from '@flotilla/runtime/internals';
import { describe, expect, it } from 'vitest';
import { useRedis } from '../support/redis.js';
import { useWorker } from './fixtures/in-process-worker.js';

const redis = useRedis(import.meta.filename);
const fixture = useWorker(redis, { conversationChunkBytes: 0 });

describe('a worker with conversationChunkBytes: 0', () => {
  it('stores one message per entry, and the conversation reads back whole', async () => {
    const conversationId = `conv-${randomUUID()}`;
    await (await fixture.client.submit('chat', { message: 'one' }, { conversationId })).result();
    await (await fixture.client.submit('chat', { message: 'two' }, { conversationId })).result();

    const entries = await redis.redis.lrange(conversationKeys(redis.prefix, conversationId).messages, 0, -1);
    // Each entry is one message object, as an earlier version's loader expects (not a chunk).
    expect(entries.map((entry) => (JSON.parse(entry) as { role: string }).role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    const stored = await fixture.client.getConversation(conversationId);
    expect(stored?.messages.map((message) => message.content)).toEqual([
      'one',
      'reply to "one" (user messages seen: 1)',
      'two',
      'reply to "two" (user messages seen: 2)',
    ]);
  });
});
