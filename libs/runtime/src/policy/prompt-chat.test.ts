import type { Message } from '@flotilla/ir';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../agent/create-agent.js';
import { executeRun } from '../agent/execute-run.js';
import { runAgent } from '../agent/run-agent.js';
import { createEmbeddedServices } from '../embedded/create-embedded-services.js';
import { InMemoryRunJournal } from '../embedded/in-memory-run-journal.js';
import { InvalidMessageHistoryError } from '../errors/policy-errors.js';
import { equipSystem } from '../hooks/equip-system.js';
import { equipTool } from '../hooks/equip-tool.js';
import { expectValidator } from '../hooks/expect-validator.js';
import { InMemoryConversationStore } from '../store/in-memory-conversation-store.js';
import { createMockModel } from '../testing/index.js';
import { promptChat } from './prompt-chat.js';

const ChatAgent = createAgent({
  id: 'chat',
  model: 'mock',
  handler: async ({ text }: { text: string }) => {
    equipSystem('You are a helpful assistant.');
    equipTool({ name: 'clock', description: 'time', parameters: z.object({}), handler: () => '12:00' });
    const { data } = await promptChat({ message: text });
    return data;
  },
});

describe('promptChat', () => {
  it('returns the answer text without a schema, with the messages after system prompts', async () => {
    const mock = createMockModel().setDefaultResponse('Hi there');
    const Agent = createAgent({
      id: 'text-chat',
      model: mock,
      handler: async () => {
        equipSystem('Be nice.');
        return promptChat({ message: [{ role: 'user', content: 'Hello' }] });
      },
    });
    const result = await Agent();
    expect(result.data).toBe('Hi there');
    expect(result.delta).toEqual([{ role: 'assistant', content: 'Hi there' }]);
    expect(mock.calls.first?.messages).toEqual([
      { role: 'system', content: 'Be nice.' },
      { role: 'user', content: 'Hello' },
    ]);
  });

  it('parses with a schema and keeps retry messages in the delta', async () => {
    const mock = createMockModel();
    mock.sequence(['not json', { json: { mood: 'good' } }]);
    const Agent = createAgent({
      id: 'schema-chat',
      model: mock,
      handler: async () => promptChat({ message: 'How are you?', schema: z.object({ mood: z.string() }) }),
    });
    const { data, delta } = await Agent();
    expect(data).toEqual({ mood: 'good' });
    expect(delta.map((message) => message.role)).toEqual(['assistant', 'user', 'assistant']);
  });

  it('runs validators on the text', async () => {
    const mock = createMockModel();
    mock.sequence(['short', 'a much longer answer']);
    const Agent = createAgent({
      id: 'validated-chat',
      model: mock,
      handler: async () => {
        expectValidator((text: unknown) => (text as string).length > 10 || 'too short');
        return (await promptChat({ message: 'Talk' })).data;
      },
    });
    await expect(Agent()).resolves.toBe('a much longer answer');
  });

  it('refuses a history whose tool calls have no results', async () => {
    const mock = createMockModel().setDefaultResponse('x');
    const broken: Message[] = [
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'c', type: 'function', function: { name: 't', arguments: '{}' } }],
      },
      { role: 'user', content: 'again' },
    ];
    const Agent = createAgent({
      id: 'broken-chat',
      model: mock,
      handler: async () => promptChat({ message: broken }),
    });
    const error = await Agent().catch((caught: unknown) => caught);
    expect(InvalidMessageHistoryError.is(error)).toBe(true);
    expect(error).toMatchObject({ index: 2 });
  });

  describe('with a conversationId', () => {
    it('appends the whole turn (user message, model turns, tool batch, answer) as one version', async () => {
      const conversations = new InMemoryConversationStore();
      const mock = createMockModel();
      mock.sequence([
        {
          toolCalls: [{ id: 'c1', name: 'clock', arguments: {} }],
          usage: { promptTokens: 5, completionTokens: 1 },
        },
        { text: 'It is noon.', usage: { promptTokens: 7, completionTokens: 2 } },
      ]);
      await runAgent(
        ChatAgent,
        { text: 'What time is it?' },
        { models: { mock }, conversations, conversationId: 'conv-1' },
      );
      const stored = await conversations.load('conv-1');
      expect(stored?.messages.map((message) => [message.role, message.content])).toEqual([
        ['user', 'What time is it?'],
        ['assistant', ''],
        ['tool', '12:00'],
        ['assistant', 'It is noon.'],
      ]);
      expect(stored?.header).toMatchObject({
        version: 1,
        system: [{ role: 'system', content: 'You are a helpful assistant.' }],
        model: { provider: 'mock', id: 'mock-model' },
        usage: { promptTokens: 12, completionTokens: 3 },
      });
    });

    it('feeds the stored history to the next run of the conversation', async () => {
      const conversations = new InMemoryConversationStore();
      const mock = createMockModel();
      mock.sequence(['Nice to meet you, Ada.', 'Your name is Ada.']);
      const options = { models: { mock }, conversations, conversationId: 'conv-2' };
      await runAgent(ChatAgent, { text: 'I am Ada.' }, options);
      await expect(runAgent(ChatAgent, { text: 'Who am I?' }, options)).resolves.toBe('Your name is Ada.');
      expect(mock.calls.last?.messages.map((message) => message.content)).toEqual([
        'You are a helpful assistant.',
        'I am Ada.',
        'Nice to meet you, Ada.',
        'Who am I?',
      ]);
    });

    it('loads a stored conversation once when it opens it, at the journaled version on replay', async () => {
      const loads: (number | undefined)[] = [];
      const conversations = new (class extends InMemoryConversationStore {
        override load(conversationId: string, options?: { version?: number }) {
          loads.push(options?.version);
          return super.load(conversationId, options);
        }
      })();
      const mock = createMockModel();
      mock.sequence(['Nice to meet you, Ada.', 'Your name is Ada.', 'Your name is Ada.']);
      const journal = new InMemoryRunJournal();
      const options = { runId: 'run-9', models: { mock }, conversations, conversationId: 'conv-5' };
      await runAgent(ChatAgent, { text: 'I am Ada.' }, { ...options, runId: 'run-8' });
      loads.length = 0;
      await executeRun({
        agent: ChatAgent,
        input: { text: 'Who am I?' },
        services: createEmbeddedServices({ ...options, journal }),
      });
      expect(loads).toEqual([undefined]);
      // A replay after the run's own append reads the version its load journaled (1), not the latest (2).
      loads.length = 0;
      const withoutLater = [...journal.snapshot()].filter(([, entry]) => entry.kind === 'conversation-load');
      await executeRun({
        agent: ChatAgent,
        input: { text: 'Who am I?' },
        services: createEmbeddedServices({ ...options, journal: new InMemoryRunJournal(withoutLater) }),
      });
      expect(loads).toEqual([1]);
      expect(mock.calls.last?.messages.map((message) => message.content)).toEqual([
        'You are a helpful assistant.',
        'I am Ada.',
        'Nice to meet you, Ada.',
        'Who am I?',
      ]);
    });

    it('never appends twice when a run is replayed from its journal', async () => {
      const conversations = new InMemoryConversationStore();
      const journal = new InMemoryRunJournal();
      const mock = createMockModel().setDefaultResponse('Hello!');
      const services = () =>
        createEmbeddedServices({
          runId: 'run-42',
          models: { mock },
          conversations,
          conversationId: 'conv-3',
          journal: new InMemoryRunJournal(journal.snapshot()),
        });
      await executeRun({
        agent: ChatAgent,
        input: { text: 'Hi' },
        services: { ...services(), journal },
      });
      const replay = await executeRun({ agent: ChatAgent, input: { text: 'Hi' }, services: services() });
      expect(replay.output).toBe('Hello!');
      expect(mock.calls.count).toBe(1);
      const stored = await conversations.load('conv-3');
      expect(stored?.messages.map((message) => message.content)).toEqual(['Hi', 'Hello!']);
    });

    it('does not re-apply an append that landed just before a crash', async () => {
      const conversations = new InMemoryConversationStore();
      const journal = new InMemoryRunJournal();
      const mock = createMockModel().setDefaultResponse('Hello!');
      const options = { runId: 'run-7', models: { mock }, conversations, conversationId: 'conv-4' };
      await executeRun({
        agent: ChatAgent,
        input: { text: 'Hi' },
        services: createEmbeddedServices({ ...options, journal }),
      });
      // The crash: the append reached the store but its journal entry was never written.
      const withoutAppend = [...journal.snapshot()].filter(
        ([, entry]) => entry.kind !== 'conversation-append',
      );
      await executeRun({
        agent: ChatAgent,
        input: { text: 'Hi' },
        services: createEmbeddedServices({ ...options, journal: new InMemoryRunJournal(withoutAppend) }),
      });
      const stored = await conversations.load('conv-4');
      expect(stored?.header.version).toBe(1);
      expect(stored?.messages.map((message) => message.content)).toEqual(['Hi', 'Hello!']);
    });
  });
});
