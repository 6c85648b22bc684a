/**
 * The context budget (`equipContextBudget`) in embedded runs: prompts stay within budget,
 * summaries are journaled and written as bases, large tool results are offloaded and readable,
 * and a summariser that keeps failing opens the circuit breaker instead of sending an
 * oversized prompt.
 */
import { estimateTokens, type Message, SUMMARY_INSTRUCTIONS, TOOL_RESULT_CLEARED } from '@flotilla/ir';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../agent/create-agent.js';
import { executeRun } from '../agent/execute-run.js';
import { runAgent } from '../agent/run-agent.js';
import { createEmbeddedServices } from '../embedded/create-embedded-services.js';
import { InMemoryRunJournal } from '../embedded/in-memory-run-journal.js';
import { ContextBudgetExceededError, InvalidContextBudgetError } from '../errors/budget-errors.js';
import type { RunEvent } from '../events/run-event.js';
import { equipContextBudget } from '../hooks/equip-context-budget.js';
import { equipSystem } from '../hooks/equip-system.js';
import { equipTool } from '../hooks/equip-tool.js';
import type { ModelAdapter, ModelRequest } from '../model/model-adapter.js';
import { promptChat } from '../policy/prompt-chat.js';
import { InMemoryConversationStore } from '../store/in-memory-conversation-store.js';
import type { ContextBudgetOptions } from './context-budget-options.js';

const isSummaryRequest = (request: ModelRequest) =>
  String(request.messages.at(-1)?.content ?? '').startsWith(SUMMARY_INSTRUCTIONS.slice(0, 40));

/** A model that answers ~100 tokens per chat turn, and summaries in a few words; it records every request. */
function scriptedModel(options: { failSummaries?: boolean; reportFactor?: number } = {}) {
  const requests: ModelRequest[] = [];
  const model: ModelAdapter = {
    id: 'scripted',
    provider: 'test',
    async generate(request) {
      requests.push(request);
      const usage = {
        promptTokens: estimateTokens(request.messages, request.tools) * (options.reportFactor ?? 1),
        completionTokens: 1,
        totalTokens: 1,
      };
      if (isSummaryRequest(request)) {
        if (options.failSummaries) throw new Error('summariser down');
        const count = request.messages.length - 1;
        return {
          message: {
            role: 'assistant',
            content: `<summary>${count} older messages about the topic</summary>`,
          },
          usage,
          finishReason: { unified: 'stop' },
        };
      }
      const asked = String(
        request.messages.filter((message) => message.role === 'user').at(-1)?.content ?? '',
      );
      return {
        message: { role: 'assistant', content: `answer to ${asked.slice(0, 12)} ${'lorem '.repeat(65)}` },
        usage,
        finishReason: { unified: 'stop' },
      };
    },
  };
  return { model, requests, chatRequests: () => requests.filter((request) => !isSummaryRequest(request)) };
}

function chatAgent(budget: ContextBudgetOptions) {
  return createAgent({
    id: 'budget-chat',
    model: 'scripted',
    handler: async ({ message }: { message: string }) => {
      equipSystem('You are a patient assistant.');
      equipContextBudget(budget);
      return (await promptChat({ message })).data;
    },
  });
}

const userMessage = (turn: number) => `turn ${turn}: ${'ipsum '.repeat(60)}`;

describe('equipContextBudget on a stored conversation', () => {
  it('keeps every request within budget, writes bases, and keeps every version readable', async () => {
    const { model, requests, chatRequests } = scriptedModel();
    const conversations = new InMemoryConversationStore();
    const events: RunEvent[] = [];
    const agent = chatAgent({ maxPromptTokens: 1200, keepRecentTurns: 2 });
    for (let turn = 1; turn <= 20; turn++) {
      await runAgent(
        agent,
        { message: userMessage(turn) },
        {
          models: { scripted: model },
          conversations,
          conversationId: 'c1',
          onEvent: (event) => events.push(event),
        },
      );
    }
    for (const request of chatRequests()) expect(estimateTokens(request.messages)).toBeLessThanOrEqual(1200);
    const summaries = requests.length - chatRequests().length;
    expect(summaries).toBeGreaterThan(0);
    const compacted = events.filter((event) => event.type === 'context-compacted');
    expect(compacted).toHaveLength(summaries);
    for (const event of compacted) expect(event.tokensAfter).toBeLessThan(event.tokensBefore);

    const latest = await conversations.load('c1');
    expect(latest?.header.base).toMatchObject({ reason: 'compaction', summarizer: { id: 'scripted' } });
    expect(latest?.messages[0]?.content).toContain('<conversation_summary>');
    expect(latest?.messages.at(-1)?.content).toContain('answer to turn 20');
    for (let version = 1; version <= (latest?.header.version ?? 0); version++) {
      const stored = await conversations.load('c1', { version });
      expect(stored?.messages.length).toBe(stored?.header.messageCount);
    }
    // Version 1 still holds the first turn verbatim.
    expect((await conversations.load('c1', { version: 1 }))?.messages[0]?.content).toBe(userMessage(1));
  });

  it('never asks the summariser again when the run is replayed from its journal', async () => {
    const { model, requests } = scriptedModel();
    const conversations = new InMemoryConversationStore();
    const agent = chatAgent({ maxPromptTokens: 1200, keepRecentTurns: 2 });
    const options = { models: { scripted: model }, conversations, conversationId: 'c2' };
    for (let turn = 1; turn <= 6; turn++) await runAgent(agent, { message: userMessage(turn) }, options);
    const journal = new InMemoryRunJournal();
    const services = () =>
      createEmbeddedServices({
        ...options,
        runId: 'r-7',
        journal: new InMemoryRunJournal(journal.snapshot()),
      });
    const before = requests.length;
    await executeRun({ agent, input: { message: userMessage(7) }, services: { ...services(), journal } });
    const live = requests.length - before;
    expect(live).toBeGreaterThan(1); // a summary and the answer
    const version = (await conversations.load('c2'))?.header.version;
    await executeRun({ agent, input: { message: userMessage(7) }, services: services() });
    expect(requests.length - before).toBe(live);
    expect((await conversations.load('c2'))?.header.version).toBe(version);
  });
});

describe('when the summariser keeps failing', () => {
  it('opens the circuit breaker after 3 failures and fails with ContextBudgetExceededError', async () => {
    const { model, chatRequests } = scriptedModel({ failSummaries: true });
    const conversations = new InMemoryConversationStore();
    const events: RunEvent[] = [];
    const agent = chatAgent({ maxPromptTokens: 1200, keepRecentTurns: 2 });
    const options = {
      models: { scripted: model },
      conversations,
      conversationId: 'c3',
      onEvent: (event: RunEvent) => events.push(event),
    };
    let error: unknown;
    for (let turn = 1; turn <= 10 && error === undefined; turn++) {
      error = await runAgent(agent, { message: userMessage(turn) }, options).then(
        () => undefined,
        (caught: unknown) => caught,
      );
    }
    expect(ContextBudgetExceededError.is(error)).toBe(true);
    const failures = events.filter((event) => event.type === 'context-compaction-failed');
    expect(failures.map((event) => [event.attempt, event.circuitOpen])).toEqual([
      [1, false],
      [2, false],
      [3, true],
    ]);
    for (const request of chatRequests()) expect(estimateTokens(request.messages)).toBeLessThanOrEqual(1200);
  });
});

describe('offloading large tool results', () => {
  it('stores the whole output as a blob, keeps a stub in the conversation, and lets the agent read it', async () => {
    const big = Array.from({ length: 400 }, (_, index) => `line ${index}`).join('\n');
    const requests: ModelRequest[] = [];
    let step = 0;
    const model: ModelAdapter = {
      id: 'tools',
      provider: 'test',
      async generate(request) {
        requests.push(request);
        step += 1;
        const usage = { promptTokens: 1, completionTokens: 1, totalTokens: 2 };
        const call = (name: string, args: unknown) => ({
          message: {
            role: 'assistant' as const,
            content: '',
            tool_calls: [
              {
                id: `call-${step}`,
                type: 'function' as const,
                function: { name, arguments: JSON.stringify(args) },
              },
            ],
          },
          usage,
          finishReason: { unified: 'tool_calls' as const },
        });
        if (step === 1) return call('dump', {});
        if (step === 2) {
          const stub = String(request.messages.at(-1)?.content);
          const id = /offloaded as output ([0-9a-f]{64})/.exec(stub)?.[1];
          return call('read_offloaded_output', { id, offset: 1000, length: 50 });
        }
        return {
          message: { role: 'assistant', content: String(request.messages.at(-1)?.content) },
          usage,
          finishReason: { unified: 'stop' },
        };
      },
    };
    const conversations = new InMemoryConversationStore();
    const events: RunEvent[] = [];
    const agent = createAgent({
      id: 'dumper',
      model,
      handler: async () => {
        equipContextBudget({ maxPromptTokens: 100_000, offloadToolResultsOver: 1000 });
        equipTool({
          name: 'dump',
          description: 'a big output',
          parameters: z.object({}),
          handler: () => big,
        });
        return (await promptChat({ message: 'dump it' })).data;
      },
    });
    const answer = await runAgent(agent, undefined, {
      conversations,
      conversationId: 'c4',
      onEvent: (event) => events.push(event),
    });
    const page = JSON.parse(answer as string);
    expect(page).toMatchObject({
      offset: 1000,
      length: 50,
      total: big.length,
      content: big.slice(1000, 1050),
    });
    const stored = (await conversations.load('c4'))?.messages ?? [];
    const stub = stored.find((message: Message) => message.name === 'dump');
    expect(stub?.content.length).toBeLessThan(1000);
    expect(stub?.content.startsWith(big.slice(0, 250))).toBe(true);
    expect(stub?.content.endsWith(big.slice(-250))).toBe(true);
    expect(requests[1]?.messages.some((message) => message.content === big)).toBe(false);
    expect(events.filter((event) => event.type === 'tool-output-offloaded')).toEqual([
      expect.objectContaining({ name: 'dump', chars: big.length, outputId: page.id }),
    ]);
  });
});

describe('when the provider reports more prompt tokens than the adapter counted', () => {
  it('takes the reported number as the truth for the next turn and compacts sooner', async () => {
    const kinds: string[] = [];
    let chats = 0;
    const model: ModelAdapter = {
      id: 'under-counting',
      provider: 'test',
      async generate(request) {
        if (isSummaryRequest(request)) {
          kinds.push('summary');
          return {
            message: { role: 'assistant', content: '<summary>earlier talk</summary>' },
            usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 },
            finishReason: { unified: 'stop' },
          };
        }
        kinds.push('chat');
        chats += 1;
        // The estimate sees ~300 tokens; the provider says 5,000 (e.g. a tokenizer it counts differently).
        const usage = { promptTokens: 5000, completionTokens: 1, totalTokens: 5001 };
        if (chats === 1) {
          return {
            message: {
              role: 'assistant',
              content: '',
              tool_calls: [{ id: 'c1', type: 'function', function: { name: 'noop', arguments: '{}' } }],
            },
            usage,
            finishReason: { unified: 'tool_calls' },
          };
        }
        return { message: { role: 'assistant', content: 'done' }, usage, finishReason: { unified: 'stop' } };
      },
    };
    const history: Message[] = [1, 2, 3, 4].flatMap((turn) => [
      { role: 'user' as const, content: `question ${turn} ${'x'.repeat(200)}` },
      { role: 'assistant' as const, content: `answer ${turn} ${'y'.repeat(200)}` },
    ]);
    const agent = createAgent({
      id: 'fed',
      model,
      handler: async () => {
        equipContextBudget({ maxPromptTokens: 4000, keepRecentTurns: 1 });
        equipTool({
          name: 'noop',
          description: 'does nothing',
          parameters: z.object({}),
          handler: () => 'ok',
        });
        return (await promptChat({ message: [...history, { role: 'user', content: 'and now?' }] })).data;
      },
    });
    expect(await runAgent(agent, undefined)).toBe('done');
    expect(kinds).toEqual(['chat', 'summary', 'chat']);
  });
});

describe('when the provider reported more prompt tokens in an earlier run', () => {
  it('counts the next run with what it reported, so the real prompt stays within budget', async () => {
    const { model, chatRequests } = scriptedModel({ reportFactor: 3 });
    const conversations = new InMemoryConversationStore();
    const events: RunEvent[] = [];
    const agent = chatAgent({ maxPromptTokens: 1500, keepRecentTurns: 2 });
    for (let turn = 1; turn <= 8; turn++) {
      await runAgent(
        agent,
        { message: userMessage(turn) },
        {
          models: { scripted: model },
          conversations,
          conversationId: 'c6',
          onEvent: (event) => events.push(event),
        },
      );
    }
    expect(events.some((event) => event.type === 'context-compacted')).toBe(true);
    // What the provider would count (3x the estimate) never went over the budget.
    for (const request of chatRequests())
      expect(3 * estimateTokens(request.messages)).toBeLessThanOrEqual(1500);
    expect((await conversations.load('c6'))?.header.lastPromptTokens).toBeGreaterThan(0);
  });
});

describe('with clear steps', () => {
  it('clears old tool results before it would summarise, without changing the stored conversation', async () => {
    const { model, requests } = scriptedModel();
    const conversations = new InMemoryConversationStore();
    const old: Message[] = [
      { role: 'user', content: 'look it up' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'search', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', name: 'search', content: 'r'.repeat(6000) },
      { role: 'assistant', content: 'found it' },
    ];
    await conversations.append('c5', { expectedVersion: 0, appendId: 'seed', messages: old });
    const agent = chatAgent({ maxPromptTokens: 1200, keepRecentTurns: 1, clear: ['tool-results'] });
    await runAgent(
      agent,
      { message: 'thanks' },
      { models: { scripted: model }, conversations, conversationId: 'c5' },
    );
    expect(requests).toHaveLength(1); // no summary was needed
    const sent = requests[0]?.messages.find((message) => message.role === 'tool');
    expect(sent?.content).toBe(TOOL_RESULT_CLEARED);
    expect((await conversations.load('c5'))?.messages[2]?.content).toBe('r'.repeat(6000));
  });
});

describe('equipContextBudget options', () => {
  it.each([
    [{ maxPromptTokens: 0 }, 'maxPromptTokens'],
    [{ maxPromptTokens: 1000, keepRecentTurns: -1 }, 'keepRecentTurns'],
    [{ maxPromptTokens: 1000, clear: ['tool-results', 'bogus'] }, 'clear[1]'],
    [{ maxPromptTokens: 1000, summarizeWith: 'nope' }, 'summarizeWith'],
    [{ maxPromptTokens: 1000, offloadToolResultsOver: 5 }, 'offloadToolResultsOver'],
  ])('rejects %j naming %s', async (options, option) => {
    const agent = createAgent({
      id: 'bad-budget',
      model: scriptedModel().model,
      handler: async () => equipContextBudget(options as ContextBudgetOptions),
    });
    const error = await runAgent(agent, undefined).catch((caught: unknown) => caught);
    expect(InvalidContextBudgetError.is(error)).toBe(true);
    expect((error as InvalidContextBudgetError).option).toBe(option);
  });
});
