/** The mock model as code written for the seed API uses it (issue: seed API parity). */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../agent/create-agent.js';
import type { AgentStreamEvent } from '../context/agent-stream-event.js';
import { onStream } from '../hooks/on-stream.js';
import { promptAgent } from '../policy/prompt-agent.js';
import { promptChat } from '../policy/prompt-chat.js';
import { createMockModel, type MockPayload, mockResponse } from './index.js';

const ask = (model: ReturnType<typeof createMockModel>, message = 'hello') =>
  createAgent({
    id: 'ask',
    model: model.adapter,
    handler: async () => (await promptChat({ message })).data,
  })();

describe('mock model, seed API shapes', () => {
  it('exposes itself as mock.adapter', () => {
    const mock = createMockModel();
    expect(mock.adapter).toBe(mock);
  });

  it('sequence() replaces the steps left from an earlier sequence', async () => {
    const mock = createMockModel();
    mock.sequence(['old 1', 'old 2']);
    mock.sequence(['new']);
    mock.setDefaultResponse('default');
    await expect(ask(mock)).resolves.toBe('new');
    await expect(ask(mock)).resolves.toBe('default');
  });

  it('reads a plain object from thenDo as the answer content; mockResponse() gives a whole response', async () => {
    const mock = createMockModel();
    mock.when({ input: 'content' }).thenDo(() => ({ verdict: 'ok' }));
    mock.when({ input: 'whole' }).thenDo(() =>
      mockResponse({
        message: { role: 'assistant', content: 'whole answer' },
        usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 },
        finishReason: { unified: 'stop' },
      }),
    );
    await expect(ask(mock, 'content please')).resolves.toBe('{"verdict":"ok"}');
    await expect(ask(mock, 'whole please')).resolves.toBe('whole answer');
  });

  it('gives predicates and thenDo the seed payload: messages, schema, lastUserMessage, userMessages', async () => {
    const mock = createMockModel();
    const payloads: MockPayload[] = [];
    mock
      .when((payload) => payload.lastUserMessage === 'second')
      .thenDo((payload) => {
        payloads.push(payload);
        return { answer: payload.userMessages.join('+') };
      });
    const Agent = createAgent({
      id: 'payload',
      model: mock,
      handler: async () => promptAgent(z.object({ answer: z.string() })).then((value) => value),
    });
    const Chat = createAgent({
      id: 'payload-chat',
      model: mock,
      handler: async () =>
        (
          await promptChat({
            message: [
              { role: 'user', content: 'first' },
              { role: 'assistant', content: 'ok' },
              { role: 'user', content: 'second' },
            ],
            schema: z.object({ answer: z.string() }),
          })
        ).data,
    });
    await expect(Chat()).resolves.toEqual({ answer: 'first+second' });
    const [payload] = payloads;
    expect(payload?.userMessages).toEqual(['first', 'second']);
    expect(payload?.schema?.properties).toMatchObject({ answer: { type: 'string' } });
    expect(payload?.schema?.jsonSchema).toMatchObject({ type: 'object' });
    expect(payload?.messages.at(-1)).toMatchObject({ role: 'user', content: 'second' });
    expect(Agent).toBeTypeOf('function');
  });

  it('thenStream sends the answer in the given chunks (or a value in chunkSize pieces)', async () => {
    const deltas: string[][] = [];
    for (const setup of [
      (mock: ReturnType<typeof createMockModel>) =>
        mock.when(() => true).thenStream(['{"answer":', '"streamed"}']),
      (mock: ReturnType<typeof createMockModel>) =>
        mock.when(() => true).thenStream({ answer: 'streamed' }, 5),
    ]) {
      const mock = createMockModel();
      setup(mock);
      const events: AgentStreamEvent[] = [];
      const Agent = createAgent({
        id: 'stream',
        model: mock,
        handler: async () => {
          onStream(async (stream) => {
            for await (const event of stream) events.push(event);
          });
          return promptAgent(z.object({ answer: z.string() }));
        },
      });
      await expect(Agent()).resolves.toEqual({ answer: 'streamed' });
      deltas.push(events.flatMap((event) => (event.type === 'text-delta' ? [event.delta] : [])));
    }
    expect(deltas[0]).toEqual(['{"answer":', '"streamed"}']);
    expect(deltas[1]).toEqual(['{"ans', 'wer":', '"stre', 'amed"', '}']);
  });

  it('applies sequence usage by position, and prices usage with the cost calculator', async () => {
    const mock = createMockModel();
    mock.sequence(['a', { text: 'b', usage: { promptTokens: 9, completionTokens: 9 } }, 'c']);
    mock.setSequenceUsage([
      { promptTokens: 1, completionTokens: 1 },
      { promptTokens: 5 },
      { promptTokens: 2, completionTokens: 3 },
    ]);
    const usages: number[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await mock.generate({ messages: [{ role: 'user', content: 'x' }] });
      usages.push(response.usage.totalTokens);
    }
    expect(usages).toEqual([2, 18, 5]);
    expect(mock.calculateCost({ promptTokens: 0, completionTokens: 0, totalTokens: 2000 })).toEqual({
      micro_usd: 2000,
    });
    expect(mock.calculateCost({ promptTokens: 0, completionTokens: 0, totalTokens: 0 })).toEqual({});
    mock.setCostCalculator((usage) => ({ credits: usage.totalTokens }));
    expect(mock.calculateCost({ promptTokens: 1, completionTokens: 1, totalTokens: 2 })).toEqual({
      credits: 2,
    });
  });

  it('withExtra puts provider data on the answer message', async () => {
    const mock = createMockModel();
    mock
      .when(() => true)
      .thenReturn('hi')
      .withExtra({ provider: 'x' });
    const response = await mock.generate({ messages: [{ role: 'user', content: 'x' }] });
    expect(response.message).toMatchObject({ content: 'hi', extra: { provider: 'x' } });
  });

  it('refuses bad delays and chunk sizes with a RangeError', () => {
    const mock = createMockModel();
    expect(() => mock.setDefaultDelay(-1)).toThrow(RangeError);
    expect(() => mock.setSequenceDelay(Number.NaN)).toThrow(RangeError);
    expect(() => mock.when(() => true).thenStream('x', 0)).toThrow(RangeError);
  });
});
