import type { Message } from '@flotilla/ir';
import { describe, expect, it } from 'vitest';
import type { ModelDelta, ModelRequest } from '../model/model-adapter.js';
import { ModelCallError } from '../model/model-call-error.js';
import { createMockModel } from './mock-model.js';
import { MockModelNoRuleError } from './mock-model-no-rule-error.js';

const user = (content: string, extra: Partial<Message> = {}): Message => ({
  role: 'user',
  content,
  ...extra,
});
const ask = (content: string): ModelRequest => ({ messages: [user(content)] });

describe('createMockModel', () => {
  it('is a model adapter with provider mock and a configurable id', () => {
    expect(createMockModel()).toMatchObject({ id: 'mock-model', provider: 'mock' });
    expect(createMockModel({ id: 'fake-gpt' }).id).toBe('fake-gpt');
  });

  describe('when a rule matches on input', () => {
    it('answers with its text and a stop finish reason', async () => {
      const mock = createMockModel();
      mock.when({ input: 'weather' }).thenReturn('It is sunny.');
      const response = await mock.generate(ask('What is the weather?'));
      expect(response.message).toEqual({ role: 'assistant', content: 'It is sunny.' });
      expect(response.finishReason.unified).toBe('stop');
      expect(response.usage).toEqual({ promptTokens: 0, completionTokens: 0, totalTokens: 0 });
    });

    it('matches a RegExp against every user text, attachments as placeholders', async () => {
      const mock = createMockModel();
      mock.when({ input: /first.*\[image\]/ }).thenReturn('saw it');
      const request: ModelRequest = {
        messages: [
          user('first question'),
          { role: 'assistant', content: 'ok' },
          user('look', { attachments: [{ mediaType: 'image/png', data: 'AAAA' }] }),
        ],
      };
      expect((await mock.generate(request)).message.content).toBe('saw it');
    });

    it('sends objects as JSON text for structured output', async () => {
      const mock = createMockModel();
      mock.when({ input: 'json' }).thenReturn({ answer: 42 });
      const response = await mock.generate(ask('json please'));
      expect(JSON.parse(response.message.content)).toEqual({ answer: 42 });
    });
  });

  describe('when a rule calls tools', () => {
    it('returns IR tool calls with JSON arguments, default ids and a tool_calls finish reason', async () => {
      const mock = createMockModel();
      mock.when({ input: 'Oslo' }).thenCallTools([
        { name: 'weather', arguments: { city: 'Oslo' } },
        { id: 'fixed', name: 'time', arguments: '{"tz":' },
      ]);
      const response = await mock.generate(ask('Oslo now'));
      expect(response.finishReason.unified).toBe('tool_calls');
      expect(response.message.tool_calls).toEqual([
        { id: 'call_0_0', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } },
        { id: 'fixed', type: 'function', function: { name: 'time', arguments: '{"tz":' } },
      ]);
    });

    it('stops matching after times(n), so a tool loop ends with the default answer', async () => {
      const mock = createMockModel();
      mock
        .when({ toolName: 'search' })
        .thenCallTools([{ name: 'search', arguments: {} }])
        .times(1);
      mock.setDefaultResponse('done');
      const first = await mock.generate(ask('use search'));
      const history: Message[] = [
        user('use search'),
        first.message,
        { role: 'tool', content: 'results', tool_call_id: 'call_0_0' },
      ];
      const second = await mock.generate({ messages: history });
      expect(second.message.content).toBe('done');
    });
  });

  describe('toolName conditions', () => {
    it('match the result of that tool even when the tool message has no name', async () => {
      const mock = createMockModel();
      mock.when({ toolName: 'weather' }).thenReturn('after weather');
      mock.setDefaultResponse('other');
      const history: Message[] = [
        user('hello'),
        {
          role: 'assistant',
          content: '',
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'weather', arguments: '{}' } }],
        },
        { role: 'tool', content: 'sunny', tool_call_id: 'c1' },
      ];
      expect((await mock.generate({ messages: history })).message.content).toBe('after weather');
      expect((await mock.generate(ask('hello'))).message.content).toBe('other');
    });
  });

  describe('priority', () => {
    it('uses sequence steps first, then the first matching rule, then the default', async () => {
      const mock = createMockModel();
      mock.when(() => true).thenReturn('first rule');
      mock.when(() => true).thenReturn('second rule');
      mock.sequence(['step one', { json: { n: 2 } }]);
      const answers: string[] = [];
      for (let i = 0; i < 3; i++) answers.push((await mock.generate(ask('x'))).message.content);
      expect(answers).toEqual(['step one', '{"n":2}', 'first rule']);
    });

    it('falls back to the default response when no rule matches', async () => {
      const mock = createMockModel().setDefaultResponse('fallback');
      mock.when({ input: 'never' }).thenReturn('nope');
      expect((await mock.generate(ask('hello'))).message.content).toBe('fallback');
    });

    it('rejects with MockModelNoRuleError naming the request when nothing answers', async () => {
      const mock = createMockModel();
      const failure = await mock.generate(ask('unscripted question')).catch((error: unknown) => error);
      expect(MockModelNoRuleError.is(failure)).toBe(true);
      expect((failure as Error).message).toContain('unscripted question');
      expect((failure as Error).message).toContain(
        'Use mock.when(...), mock.sequence(...), or mock.setDefaultResponse(...).',
      );
    });
  });

  describe('errors, responders, usage and latency', () => {
    it('rejects with the configured error', async () => {
      const mock = createMockModel();
      const error = new ModelCallError({
        provider: 'mock',
        modelId: 'mock-model',
        message: 'busy',
        status: 429,
      });
      mock.when({ input: 'x' }).thenThrow(error);
      await expect(mock.generate(ask('x'))).rejects.toBe(error);
    });

    it('answers from a responder that sees the request', async () => {
      const mock = createMockModel();
      mock.when(() => true).thenDo(async (request) => `you said ${request.messages.at(-1)?.content}`);
      expect((await mock.generate(ask('ping'))).message.content).toBe('you said ping');
    });

    it('reports rule usage with a summed total, else the default usage', async () => {
      const mock = createMockModel().setDefaultUsage({ promptTokens: 1, completionTokens: 1 });
      mock
        .when({ input: 'big' })
        .thenReturn('ok')
        .withUsage({ promptTokens: 10, completionTokens: 5, details: { reasoningTokens: 2 } });
      mock.setDefaultResponse('small');
      expect((await mock.generate(ask('big'))).usage).toEqual({
        promptTokens: 10,
        completionTokens: 5,
        totalTokens: 15,
        details: { reasoningTokens: 2 },
      });
      expect((await mock.generate(ask('tiny'))).usage.totalTokens).toBe(2);
    });

    it('rejects with the abort reason when the request is cancelled during the delay', async () => {
      const mock = createMockModel();
      mock
        .when(() => true)
        .thenReturn('late')
        .withDelay(60_000);
      const controller = new AbortController();
      const pending = mock.generate({ ...ask('x'), signal: controller.signal });
      controller.abort(new Error('cancelled by test'));
      await expect(pending).rejects.toThrow('cancelled by test');
    });

    it('rejects an already-aborted request without recording it', async () => {
      const mock = createMockModel().setDefaultResponse('x');
      await expect(mock.generate({ ...ask('x'), signal: AbortSignal.abort() })).rejects.toMatchObject({
        name: 'AbortError',
      });
      expect(mock.calls.count).toBe(0);
    });
  });

  describe('call records', () => {
    it('keeps copies of each request, unaffected by later changes', async () => {
      const mock = createMockModel().setDefaultResponse('ok');
      const messages = [user('one')];
      await mock.generate({ messages, schema: { name: 'result', jsonSchema: { type: 'object' } } });
      messages[0]!.content = 'changed';
      await mock.generate(ask('two'));
      expect(mock.calls.count).toBe(2);
      expect(mock.calls.first?.messages[0]?.content).toBe('one');
      expect(mock.calls.first?.schema?.name).toBe('result');
      expect(mock.calls.last?.messages[0]?.content).toBe('two');
      expect(mock.calls.all.map((call) => call.index)).toEqual([0, 1]);
      mock.calls.clear();
      expect(mock.calls.count).toBe(0);
    });

    it('keeps only the newest calls up to record.limit, and counts them all', async () => {
      const mock = createMockModel({ record: { limit: 2 } }).setDefaultResponse('ok');
      for (const text of ['one', 'two', 'three']) await mock.generate(ask(text));
      expect(mock.calls.count).toBe(3);
      expect(mock.calls.all.map((call) => [call.index, call.messages[0]?.content])).toEqual([
        [1, 'two'],
        [2, 'three'],
      ]);
    });

    it('keeps 500 calls by default, however many it answers', async () => {
      const mock = createMockModel().setDefaultResponse('ok');
      for (let call = 0; call < 600; call++) await mock.generate(ask(`call ${call}`));
      expect(mock.calls.count).toBe(600);
      expect(mock.calls.all).toHaveLength(500);
      expect(mock.calls.first?.messages[0]?.content).toBe('call 100');
    });

    it('keeps no calls with record: false, and still answers by call index', async () => {
      const mock = createMockModel({ record: false });
      mock.sequence(['first', 'second']);
      expect((await mock.generate(ask('a'))).message.content).toBe('first');
      expect((await mock.generate(ask('b'))).message.content).toBe('second');
      expect(mock.calls.count).toBe(2);
      expect(mock.calls.all).toEqual([]);
    });

    it('refuses a record.limit that is not a whole number', () => {
      expect(() => createMockModel({ record: { limit: -1 } })).toThrow(RangeError);
      expect(() => createMockModel({ record: { limit: 1.5 } })).toThrow(/record\.limit/);
    });

    it('reset forgets rules, steps, defaults and calls', async () => {
      const mock = createMockModel().setDefaultResponse('ok');
      await mock.generate(ask('x'));
      mock.reset();
      expect(mock.calls.count).toBe(0);
      await expect(mock.generate(ask('x'))).rejects.toBeInstanceOf(MockModelNoRuleError);
    });
  });

  describe('with onDelta', () => {
    it('streams text deltas that join back to the final text', async () => {
      const mock = createMockModel().setDefaultResponse('Hello there, world');
      const deltas: ModelDelta[] = [];
      const response = await mock.generate({ ...ask('x'), onDelta: (delta) => deltas.push(delta) });
      const texts = deltas.flatMap((delta) => (delta.type === 'text-delta' ? [delta.text] : []));
      expect(texts.length).toBeGreaterThan(1);
      expect(texts.join('')).toBe(response.message.content);
      expect(mock.calls.last?.streamed).toBe(true);
    });

    it('streams one tool-call delta per call with id, name and arguments', async () => {
      const mock = createMockModel();
      mock.sequence([{ toolCalls: [{ id: 'a', name: 'lookup', arguments: { q: 1 } }] }]);
      const deltas: ModelDelta[] = [];
      await mock.generate({ ...ask('x'), onDelta: (delta) => deltas.push(delta) });
      expect(deltas).toEqual([
        { type: 'tool-call-delta', index: 0, id: 'a', name: 'lookup', argumentsDelta: '{"q":1}' },
      ]);
    });
  });
});
