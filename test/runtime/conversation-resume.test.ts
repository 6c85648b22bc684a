/**
 * Resuming a conversation: two runs on one conversationId; the second run's model sees the
 * first run's turns, and every stored version reads back exactly as it was.
 */
import { randomUUID } from 'node:crypto';
import { RedisConversationStore } from '@flotilla/runtime/internals';
import { describe, expect, it, vi } from 'vitest';
import { useRedis } from '../support/redis.js';
import { useWorker } from './fixtures/in-process-worker.js';

const redis = useRedis(import.meta.filename);
const fixture = useWorker(redis);

describe('when two runs share a conversationId', () => {
  it('lets the second run see the first run turns', async () => {
    const conversationId = `conv-${randomUUID()}`;
    const first = await fixture.client.submit('chat', { message: 'my name is Ada' }, { conversationId });
    expect(await first.result()).toBe('reply to "my name is Ada" (user messages seen: 1)');
    const second = await fixture.client.submit('chat', { message: 'what is my name?' }, { conversationId });
    expect(await second.result()).toBe('reply to "what is my name?" (user messages seen: 2)');

    const stored = await fixture.client.getConversation(conversationId);
    expect(stored?.messages.map((message) => [message.role, message.content])).toEqual([
      ['user', 'my name is Ada'],
      ['assistant', 'reply to "my name is Ada" (user messages seen: 1)'],
      ['user', 'what is my name?'],
      ['assistant', 'reply to "what is my name?" (user messages seen: 2)'],
    ]);
    expect(stored?.header.model).toEqual({ provider: 'mock', id: 'chat-model' });
    expect((await fixture.client.getRun(second.id))?.conversationId).toBe(conversationId);
  });

  it('reads the conversation at version N exactly as it was stored then', async () => {
    const conversationId = `conv-${randomUUID()}`;
    await (await fixture.client.submit('chat', { message: 'one' }, { conversationId })).result();
    const afterFirst = await fixture.client.getConversation(conversationId);
    await (await fixture.client.submit('chat', { message: 'two' }, { conversationId })).result();
    const latest = await fixture.client.getConversation(conversationId);
    expect(latest?.header.version).toBeGreaterThan(afterFirst?.header.version ?? 0);

    const atFirst = await fixture.client.getConversation(conversationId, {
      version: afterFirst?.header.version ?? -1,
    });
    expect(atFirst).toEqual(afterFirst);
    for (let version = 0; version <= (latest?.header.version ?? 0); version++) {
      const snapshot = await fixture.client.getConversation(conversationId, { version });
      expect(snapshot?.header.version).toBe(version);
      expect(snapshot?.messages).toEqual(latest?.messages.slice(0, snapshot?.header.messageCount));
    }
  });

  it('loads the conversation once when a run opens it (the version it journals is the one it read)', async () => {
    const conversationId = `conv-${randomUUID()}`;
    await (await fixture.client.submit('chat', { message: 'one' }, { conversationId })).result();
    const load = vi.spyOn(RedisConversationStore.prototype, 'load');
    const fromGate = vi.spyOn(RedisConversationStore.prototype, 'loadLatestRead');
    try {
      const second = await fixture.client.submit('chat', { message: 'two' }, { conversationId });
      expect(await second.result()).toBe('reply to "two" (user messages seen: 2)');
      // Submitted alone in line, its first attempt holds the lease without entering the gate
      // (register-writer-5): one load of the latest version, not a second one of the version it read.
      expect(load.mock.calls.filter(([id]) => id.includes(conversationId))).toHaveLength(1);
      expect(load.mock.calls.find(([id]) => id.includes(conversationId))?.[1]).toBeUndefined();
      expect(fromGate.mock.calls.filter(([id]) => id.includes(conversationId))).toEqual([]);
      // Two at once (the one behind enters the gate and loads the read it made there): still
      // one read per run.
      load.mockClear();
      const [third, fourth] = await Promise.all([
        fixture.client.submit('chat', { message: 'three' }, { conversationId }),
        fixture.client.submit('chat', { message: 'four' }, { conversationId }),
      ]);
      await third.result();
      await fourth.result();
      const loads = load.mock.calls.filter(([id]) => id.includes(conversationId));
      const gateReads = fromGate.mock.calls.filter(([id]) => id.includes(conversationId));
      expect(loads.length + gateReads.length).toBe(2);
    } finally {
      load.mockRestore();
      fromGate.mockRestore();
    }
  });
});
