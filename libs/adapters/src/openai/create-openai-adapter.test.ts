import { fromOpenAI, type Message } from '@flotilla/ir';
import type { ModelDelta } from '@flotilla/runtime';
import { ModelCallError } from '@flotilla/runtime';
import { describe, expect, it, vi } from 'vitest';
import {
  readChunksFixture,
  readJsonFixture,
  startProviderTestServer,
} from '../shared/provider-test-server.js';
import { chatCompletionsRules } from '../shared/provider-wire-rules.js';
import { useProviderTestServer, weatherTool } from '../shared/use-provider-test-server.js';
import { createOpenAIAdapter } from './create-openai-adapter.js';

const fixture = (name: string): URL => new URL(`./__fixtures__/${name}`, import.meta.url);

const question: Message[] = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: 'Capital of France?' },
];

const server = useProviderTestServer({ validate: chatCompletionsRules });

function adapter(extra: Partial<Parameters<typeof createOpenAIAdapter>[0]> = {}) {
  return createOpenAIAdapter({
    model: 'gpt-4.1-mini',
    apiKey: 'sk-test',
    baseURL: `${server.url}/v1`,
    retryBaseDelayMs: 1,
    ...extra,
  });
}

describe('createOpenAIAdapter (Chat Completions)', () => {
  it('sends IR as chat messages with tools, tool choice and a strict JSON schema, and returns IR text', async () => {
    server.reply({ kind: 'json', body: await readJsonFixture(fixture('chat-text.json')) });
    const response = await adapter({ temperature: 0.2, maxTokens: 100 }).generate({
      messages: question,
      tools: [weatherTool],
      toolChoice: 'auto',
      schema: { name: 'answer', jsonSchema: { type: 'object', properties: { city: { type: 'string' } } } },
    });

    const request = server.requests[0]!;
    expect(request.url).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe('Bearer sk-test');
    expect(request.body).toEqual({
      model: 'gpt-4.1-mini',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Capital of France?' },
      ],
      tools: [{ type: 'function', function: weatherTool }],
      tool_choice: 'auto',
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'answer',
          schema: { type: 'object', properties: { city: { type: 'string' } } },
          strict: true,
        },
      },
      temperature: 0.2,
      max_completion_tokens: 100,
    });
    expect(response).toEqual({
      message: { role: 'assistant', content: 'Paris is the capital of France.' },
      usage: { promptTokens: 24, completionTokens: 8, totalTokens: 32 },
      finishReason: { unified: 'stop', raw: 'stop' },
    });
  });

  it('returns tool calls with reasoning and cached-token usage details', async () => {
    server.reply({ kind: 'json', body: await readJsonFixture(fixture('chat-tool-calls.json')) });
    const response = await adapter().generate({ messages: question, tools: [weatherTool] });
    expect(response.finishReason).toEqual({ unified: 'tool_calls', raw: 'tool_calls' });
    expect(response.message).toEqual({
      role: 'assistant',
      content: '',
      tool_calls: [
        {
          id: 'call_Vq3nWkP0aB7yXcD1eF2gH3iJ',
          type: 'function',
          function: { name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' },
        },
        {
          id: 'call_Kp9sLm2Qr4tUv6Wx8Yz0Ab1C',
          type: 'function',
          function: { name: 'get_time', arguments: '{"timezone":"Europe/Paris"}' },
        },
      ],
    });
    expect(response.usage).toEqual({
      promptTokens: 1310,
      completionTokens: 219,
      totalTokens: 1529,
      details: { reasoningTokens: 128, cacheReadTokens: 1152 },
    });
  });

  it('moves media returned by a tool into a user message after the tool messages', async () => {
    server.reply({ kind: 'json', body: await readJsonFixture(fixture('chat-text.json')) });
    const history: Message[] = [
      { role: 'user', content: 'Show me the chart' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'chart', arguments: '{}' } }],
      },
      {
        role: 'tool',
        tool_call_id: 'call_1',
        name: 'chart',
        content: '',
        attachments: [{ mediaType: 'image/png', data: 'iVBORw0KGgo=', source: 'base64' }],
      },
    ];
    await adapter().generate({ messages: history });
    const sent = (server.requests[0]!.body as { messages: Array<Record<string, unknown>> }).messages;
    expect(sent.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'call_1', content: expect.stringContaining('media') },
      {
        role: 'user',
        content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }],
      },
    ]);
  });

  it('sends an image’s detail and a user’s participant name read from a chat payload', async () => {
    server.reply({ kind: 'json', body: await readJsonFixture(fixture('chat-text.json')) });
    const { history } = fromOpenAI([
      {
        role: 'user',
        name: 'alice',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'low' } },
          { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg', detail: 'high' } },
        ],
      },
    ]);
    await adapter().generate({ messages: history });
    expect((server.requests[0]!.body as { messages: unknown[] }).messages).toEqual([
      {
        role: 'user',
        name: 'alice',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'low' } },
          { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg', detail: 'high' } },
        ],
      },
    ]);
  });

  describe('with onDelta', () => {
    it('streams text deltas with usage included and resolves with the whole text', async () => {
      server.reply({
        kind: 'sse',
        chunks: await readChunksFixture(fixture('chat-text.chunks.txt')),
        done: true,
      });
      const deltas: ModelDelta[] = [];
      const response = await adapter().generate({
        messages: question,
        onDelta: (delta) => deltas.push(delta),
      });
      expect(server.requests[0]!.body).toMatchObject({
        stream: true,
        stream_options: { include_usage: true },
      });
      expect(deltas).toEqual([
        { type: 'text-delta', text: 'Paris' },
        { type: 'text-delta', text: ' is the' },
        { type: 'text-delta', text: ' capital.' },
      ]);
      expect(response.message).toEqual({ role: 'assistant', content: 'Paris is the capital.' });
      expect(response.usage).toEqual({ promptTokens: 24, completionTokens: 5, totalTokens: 29 });
      expect(response.finishReason.unified).toBe('stop');
    });

    it('merges streamed tool-call fragments by index', async () => {
      server.reply({
        kind: 'sse',
        chunks: await readChunksFixture(fixture('chat-tool-calls.chunks.txt')),
        done: true,
      });
      const deltas: ModelDelta[] = [];
      const response = await adapter().generate({
        messages: question,
        tools: [weatherTool],
        onDelta: (delta) => deltas.push(delta),
      });
      expect(response.message.tool_calls).toEqual([
        {
          id: 'call_Ab12',
          type: 'function',
          function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
        },
        { id: 'call_Cd34', type: 'function', function: { name: 'get_time', arguments: '{}' } },
      ]);
      expect(deltas[0]).toEqual({ type: 'tool-call-delta', index: 0, id: 'call_Ab12', name: 'get_weather' });
      expect(deltas[1]).toEqual({ type: 'tool-call-delta', index: 0, argumentsDelta: '{"ci' });
      expect(response.finishReason.unified).toBe('tool_calls');
      expect(response.usage.details).toEqual({ cacheReadTokens: 64 });
    });

    it('reports reasoning_content of OpenAI-compatible servers as reasoning deltas', async () => {
      const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
        id: 'x',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'deepseek-reasoner',
        choices: [{ index: 0, delta, finish_reason: finish }],
      });
      server.reply({
        kind: 'sse',
        chunks: [chunk({ reasoning_content: 'Think.' }), chunk({ content: 'Answer.' }, 'stop')],
        done: true,
      });
      const deltas: ModelDelta[] = [];
      const deepseek = adapter({ model: 'deepseek-reasoner', provider: 'deepseek' });
      const response = await deepseek.generate({
        messages: question,
        onDelta: (delta) => deltas.push(delta),
      });
      expect(deepseek.provider).toBe('deepseek');
      expect(deltas).toEqual([
        { type: 'reasoning-delta', text: 'Think.' },
        { type: 'text-delta', text: 'Answer.' },
      ]);
      expect(response.message).toEqual({
        role: 'assistant',
        content: 'Answer.',
        thinking: { thinking: 'Think.' },
      });
    });
  });

  describe('when the provider fails', () => {
    const rateLimited = (headers: Record<string, string>) => ({
      kind: 'json' as const,
      status: 429,
      headers,
      body: {
        error: {
          message: 'Rate limit reached for gpt-4.1-mini',
          type: 'requests',
          code: 'rate_limit_exceeded',
        },
      },
    });

    it('retries a 429 after the retry-after the provider asked for, then succeeds', async () => {
      server.reply(rateLimited({ 'retry-after': '1' }), {
        kind: 'json',
        body: await readJsonFixture(fixture('chat-text.json')),
      });
      const response = await adapter().generate({ messages: question });
      expect(server.requests).toHaveLength(2);
      expect(response.message.content).toBe('Paris is the capital of France.');
    });

    it('gives up after maxRetries with a retryable ModelCallError carrying status and retry-after', async () => {
      server.reply(rateLimited({ 'retry-after': '0' }));
      const failure = await adapter({ maxRetries: 2 })
        .generate({ messages: question })
        .catch((error: unknown) => error);
      expect(server.requests).toHaveLength(3);
      expect(ModelCallError.is(failure)).toBe(true);
      expect(failure).toMatchObject({
        provider: 'openai',
        modelId: 'gpt-4.1-mini',
        status: 429,
        retryable: true,
      });
      expect((failure as ModelCallError).retryAfterSeconds).toBe(0);
      expect((failure as Error).message).toContain('Rate limit reached');
      expect((failure as Error).message).toContain('after 3 attempts');
    });

    it('retries server errors with backoff', async () => {
      server.reply(
        { kind: 'json', status: 503, body: { error: { message: 'overloaded' } } },
        { kind: 'json', body: await readJsonFixture(fixture('chat-text.json')) },
      );
      await adapter().generate({ messages: question });
      expect(server.requests).toHaveLength(2);
    });

    it('fails fast on a 400 with a non-retryable ModelCallError', async () => {
      server.reply({
        kind: 'json',
        status: 400,
        body: {
          error: { message: "Invalid schema for response_format 'answer'", type: 'invalid_request_error' },
        },
      });
      const failure = await adapter()
        .generate({ messages: question })
        .catch((error: unknown) => error);
      expect(server.requests).toHaveLength(1);
      expect(failure).toMatchObject({ name: 'ModelCallError', status: 400, retryable: false });
      expect((failure as Error).message).toContain('Invalid schema');
      expect((failure as Error).cause).toBeInstanceOf(Error);
    });

    it('turns an unreachable server into a retryable ModelCallError without status', async () => {
      const closed = await startProviderTestServer();
      await closed.close();
      const failure = await adapter({ baseURL: `${closed.url}/v1`, maxRetries: 0 })
        .generate({ messages: question })
        .catch((error: unknown) => error);
      expect(failure).toMatchObject({ name: 'ModelCallError', status: undefined, retryable: true });
    });
  });

  it('rejects with the abort reason when the call is cancelled', async () => {
    server.reply({ kind: 'hang' });
    const controller = new AbortController();
    const pending = adapter().generate({ messages: question, signal: controller.signal });
    await vi.waitFor(() => expect(server.requests).toHaveLength(1));
    controller.abort(new Error('run cancelled'));
    await expect(pending).rejects.toThrow('run cancelled');
  });

  it('never lets the SDK retry on its own, even with a caller-made client', async () => {
    const { default: OpenAI } = await import('openai');
    const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${server.url}/v1`, maxRetries: 5 });
    server.reply({ kind: 'json', status: 500, body: { error: { message: 'boom' } } });
    await expect(
      createOpenAIAdapter({ model: 'gpt-4.1-mini', client, maxRetries: 0 }).generate({ messages: question }),
    ).rejects.toMatchObject({
      status: 500,
    });
    expect(server.requests).toHaveLength(1);
  });
});
