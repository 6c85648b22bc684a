import { describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import { runAgent } from '../agent/run-agent.js';
import { promptChat } from '../policy/prompt-chat.js';
import type { AppendChange } from '../store/conversation-store.js';
import { InMemoryConversationStore } from '../store/in-memory-conversation-store.js';
import { createMockModel } from '../testing/index.js';

/** An in-memory store that keeps every change it was given. */
class RecordingStore extends InMemoryConversationStore {
  readonly changes: AppendChange[] = [];
  override append(conversationId: string, change: AppendChange) {
    this.changes.push(change);
    return super.append(conversationId, change);
  }
}

const Chat = createAgent({
  id: 'chat',
  model: 'chat-model',
  handler: async ({ text }: { text: string }) => (await promptChat({ message: text })).data,
});

describe('ConversationLog appends', () => {
  it('leave out the model while it is the one stored, and the store keeps it per version', async () => {
    const conversations = new RecordingStore();
    const [first, second] = [createMockModel({ id: 'first' }), createMockModel({ id: 'second' })];
    for (const model of [first, second]) model.setDefaultResponse('ok');
    const run = (model: typeof first) =>
      runAgent(Chat, { text: 'hi' }, { models: { 'chat-model': model }, conversations, conversationId: 'c' });
    await run(first);
    await run(first);
    await run(second);
    expect(conversations.changes.map((change) => change.model?.id)).toEqual(['first', undefined, 'second']);
    const models = [];
    for (let version = 1; version <= 3; version++)
      models.push((await conversations.load('c', { version }))?.header.model?.id);
    expect(models).toEqual(['first', 'first', 'second']);
  });
});
