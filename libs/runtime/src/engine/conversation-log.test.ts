import { describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import { executeRun } from '../agent/execute-run.js';
import { runAgent } from '../agent/run-agent.js';
import type { JournalEntry, RecordOptions } from '../context/journal-entry.js';
import { createEmbeddedServices } from '../embedded/create-embedded-services.js';
import { InMemoryRunJournal } from '../embedded/in-memory-run-journal.js';
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

/** A journal that keeps the text each entry was handed over with (what a Redis journal stores). */
class TextJournal extends InMemoryRunJournal {
  readonly texts = new Map<string, string | undefined>();
  override record(position: string, entry: JournalEntry, options?: RecordOptions): Promise<void> {
    this.texts.set(position, options?.text);
    return super.record(position, entry);
  }
}

describe('ConversationLog steps', () => {
  it('journal the version they loaded and appended as the text JSON.stringify writes of it', async () => {
    const conversations = new InMemoryConversationStore();
    const model = createMockModel({ id: 'chat-model' }).setDefaultResponse('ok');
    const versions: unknown[][] = [];
    for (const text of ['one', 'two']) {
      const journal = new TextJournal();
      const services = createEmbeddedServices({ models: { 'chat-model': model }, journal, conversations });
      services.conversationId = 'c';
      await executeRun({ agent: Chat, input: { text }, services });
      const steps = [...journal.snapshot()].filter(([, entry]) => entry.kind.startsWith('conversation-'));
      for (const [position, entry] of steps) expect(journal.texts.get(position)).toBe(JSON.stringify(entry));
      versions.push(steps.map(([, entry]) => [entry.kind, entry.outcome]));
    }
    expect(versions).toEqual([
      [
        ['conversation-load', { ok: true, value: { version: 0 } }],
        ['conversation-append', { ok: true, value: { version: 1 } }],
      ],
      [
        ['conversation-load', { ok: true, value: { version: 1 } }],
        ['conversation-append', { ok: true, value: { version: 2 } }],
      ],
    ]);
  });
});
