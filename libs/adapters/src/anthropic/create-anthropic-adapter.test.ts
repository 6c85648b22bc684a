import type { CompileWarning, Message } from '@flotilla/ir';
import type { ModelDelta } from '@flotilla/runtime';
import { ModelCallError } from '@flotilla/runtime';
import { describe, expect, it, vi } from 'vitest';
import {
  readChunksFixture,
  readJsonFixture,
  startProviderTestServer,
} from '../shared/provider-test-server.js';
import { anthropicRules } from '../shared/provider-wire-rules.js';
import { useProviderTestServer, weatherTool } from '../shared/use-provider-test-server.js';
import { createAnthropicAdapter } from './create-anthropic-adapter.js';
import { toAnthropicMessages } from './to-anthropic-messages.js';

const fixture = (name: string): URL => new URL(`./__fixtures__/${name}`, import.meta.url);

const question: Message[] = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: 'Weather in Paris?' },
];

interface AnthropicBody {
  messages: Array<{ role: string; content: string | Array<Record<string, unknown>> }>;
  [key: string]: unknown;
}

const server = useProviderTestServer({ validate: anthropicRules });

function adapter(extra: Partial<Parameters<typeof createAnthropicAdapter>[0]> = {}) {
  return createAnthropicAdapter({
    model: 'claude-sonnet-4-5',
    apiKey: 'sk-ant-test',
    baseURL: server.url,
    retryBaseDelayMs: 1,
    ...extra,
  });
}

const body = (index = 0): AnthropicBody => server.requests[index]!.body as AnthropicBody;

describe('createAnthropicAdapter', () => {
  it('sends system, messages, tools, tool choice, max_tokens and thinking through the SDK', async () => {
    server.reply({ kind: 'json', body: await readJsonFixture(fixture('anthropic-text.json')) });
    const model = adapter({ maxTokens: 2048, thinking: { type: 'enabled', budget_tokens: 1024 } });
    await model.generate({ messages: question, tools: [weatherTool], toolChoice: 'auto' });
    const request = server.requests[0]!;
    expect(request.url).toBe('/v1/messages');
    expect(request.headers.authorization).toBe('Bearer sk-ant-test');
    expect(request.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(request.body).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 2048,
      system: [{ type: 'text', text: 'You are terse.' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] }],
      tools: [
        {
          name: 'get_weather',
          description: 'Current weather of a city',
          input_schema: weatherTool.parameters,
        },
      ],
      tool_choice: { type: 'auto' },
      thinking: { type: 'enabled', budget_tokens: 1024 },
    });
    expect(model).toMatchObject({ id: 'claude-sonnet-4-5', provider: 'anthropic' });
  });

  it('maps every tool choice, sends none without tools, and defaults max_tokens to 4096', async () => {
    server.reply({ kind: 'json', body: await readJsonFixture(fixture('anthropic-text.json')) });
    const choices = ['auto', 'none', { type: 'function', function: { name: 'get_weather' } }] as const;
    for (const toolChoice of choices)
      await adapter().generate({ messages: question, tools: [weatherTool], toolChoice });
    await adapter().generate({ messages: question, toolChoice: 'auto' });
    expect(server.requests.map((request) => (request.body as AnthropicBody).tool_choice)).toEqual([
      { type: 'auto' },
      { type: 'none' },
      { type: 'tool', name: 'get_weather' },
      undefined,
    ]);
    expect(body(3).max_tokens).toBe(4096);
  });

  it('sends a forced tool choice as auto when thinking is on, which the API requires', async () => {
    server.reply({ kind: 'json', body: await readJsonFixture(fixture('anthropic-text.json')) });
    const warnings: CompileWarning[] = [];
    await adapter({
      thinking: { type: 'adaptive' },
      onWarning: (warning) => warnings.push(warning),
    }).generate({ messages: question, tools: [weatherTool], toolChoice: 'required' });
    expect(body().tool_choice).toEqual({ type: 'auto' });
    expect(warnings.map((warning) => warning.code)).toEqual(['tool-choice-relaxed']);
  });

  it('returns text with usage that counts cache reads and writes in the prompt', async () => {
    server.reply({ kind: 'json', body: await readJsonFixture(fixture('anthropic-text.json')) });
    const response = await adapter().generate({ messages: question });
    expect(response).toEqual({
      message: { role: 'assistant', content: 'It is 18°C and sunny in Paris.' },
      usage: {
        promptTokens: 21 + 188 + 1536,
        completionTokens: 14,
        totalTokens: 21 + 188 + 1536 + 14,
        details: { cacheReadTokens: 1536, cacheWriteTokens: 188 },
      },
      finishReason: { unified: 'stop', raw: 'end_turn' },
    });
  });

  it('keeps signed thinking with the tool calls and sends it back first, with tool media as native blocks', async () => {
    server.reply({ kind: 'json', body: await readJsonFixture(fixture('anthropic-thinking-tool-use.json')) });
    const first = await adapter().generate({ messages: question, tools: [weatherTool] });
    expect(first.message).toEqual({
      role: 'assistant',
      content: 'Let me check.',
      tool_calls: [
        {
          id: 'toolu_01A09q90qw90lq917835lq9',
          type: 'function',
          function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
        },
      ],
      thinking: {
        thinking: 'The user wants the weather in Paris. I should call get_weather.',
        signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds6vX3YoXGa6Wn3AEn1vGmVSjkbXh2w==',
      },
    });
    expect(first.finishReason).toEqual({ unified: 'tool_calls', raw: 'tool_use' });
    expect(first.usage).toEqual({
      promptTokens: 412,
      completionTokens: 96,
      totalTokens: 508,
      details: { reasoningTokens: 41 },
    });

    server.reply({ kind: 'json', body: await readJsonFixture(fixture('anthropic-text.json')) });
    await adapter({ thinking: { type: 'enabled', budget_tokens: 1024 } }).generate({
      tools: [weatherTool],
      messages: [
        ...question,
        first.message,
        {
          role: 'tool',
          tool_call_id: 'toolu_01A09q90qw90lq917835lq9',
          content: 'sunny',
          attachments: [{ mediaType: 'image/png', data: 'iVBORw0KGgo=', source: 'base64' }],
        },
      ],
    });
    expect(body(1).thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
    expect(body(1).messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [
          {
            type: 'thinking',
            thinking: 'The user wants the weather in Paris. I should call get_weather.',
            signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds6vX3YoXGa6Wn3AEn1vGmVSjkbXh2w==',
          },
          { type: 'text', text: 'Let me check.' },
          {
            type: 'tool_use',
            id: 'toolu_01A09q90qw90lq917835lq9',
            name: 'get_weather',
            input: { city: 'Paris' },
          },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_01A09q90qw90lq917835lq9',
            content: [
              { type: 'text', text: 'sunny' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
            ],
          },
        ],
      },
    ]);
  });

  it('leaves thinking off in a tool loop that began on another provider, and says so', async () => {
    server.reply({ kind: 'json', body: await readJsonFixture(fixture('anthropic-text.json')) });
    const warnings: CompileWarning[] = [];
    const call = {
      id: 'call_Ab12',
      type: 'function' as const,
      function: { name: 'get_weather', arguments: '{}' },
    };
    await adapter({
      thinking: { type: 'enabled', budget_tokens: 1024 },
      onWarning: (warning) => warnings.push(warning),
    }).generate({
      tools: [weatherTool],
      toolChoice: 'required',
      messages: [
        ...question,
        { role: 'assistant', content: '', tool_calls: [call] },
        { role: 'tool', tool_call_id: 'call_Ab12', content: 'sunny' },
      ],
    });
    expect(server.requests).toHaveLength(1);
    expect(body().thinking).toBeUndefined();
    expect(body().tool_choice).toEqual({ type: 'any' });
    expect(warnings.map((warning) => warning.code)).toEqual(['thinking-off-mid-tool-loop']);
  });

  it('keeps thinking on in its own tool loop, also when the user adds text to the tool results', async () => {
    server.reply({ kind: 'json', body: await readJsonFixture(fixture('anthropic-thinking-tool-use.json')) });
    const first = await adapter().generate({ messages: question, tools: [weatherTool] });
    server.reply({ kind: 'json', body: await readJsonFixture(fixture('anthropic-text.json')) });
    await adapter({ thinking: { type: 'enabled', budget_tokens: 1024 } }).generate({
      tools: [weatherTool],
      messages: [
        ...question,
        first.message,
        { role: 'tool', tool_call_id: 'toolu_01A09q90qw90lq917835lq9', content: 'sunny' },
        { role: 'user', content: 'In Celsius, please.' },
      ],
    });
    expect(server.requests).toHaveLength(2);
    expect(body(1).thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
    expect(body(1).messages.at(-1)?.content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_01A09q90qw90lq917835lq9', content: 'sunny' },
      { type: 'text', text: 'In Celsius, please.' },
    ]);
  });

  it('keeps one thinking and one redacted block, and reports the ones the IR cannot hold', async () => {
    const recorded = (await readJsonFixture(fixture('anthropic-thinking-tool-use.json'))) as {
      content: unknown[];
    };
    const content = [
      { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP' },
      ...recorded.content,
      { type: 'thinking', thinking: 'More.', signature: 'c2Vjb25k' },
    ];
    server.reply({ kind: 'json', body: { ...recorded, content } });
    const warnings: CompileWarning[] = [];
    const response = await adapter({ onWarning: (warning) => warnings.push(warning) }).generate({
      messages: question,
    });
    expect(response.message.redacted_thinking).toEqual({
      data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP',
    });
    expect(response.message.thinking?.thinking).toBe(
      'The user wants the weather in Paris. I should call get_weather.',
    );
    expect(warnings.map((warning) => warning.code)).toEqual(['thinking-blocks-dropped']);
  });

  it('asks for native JSON output with output_config.format', async () => {
    const answer = { ...((await readJsonFixture(fixture('anthropic-text.json'))) as object) };
    server.reply({
      kind: 'json',
      body: { ...answer, content: [{ type: 'text', text: '{"summary":"sunny"}' }] },
    });
    const schema = { type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'] };
    const response = await adapter({ extraBody: { output_config: { effort: 'low' } } }).generate({
      messages: question,
      schema: { name: 'answer', jsonSchema: schema },
    });
    expect(body().output_config).toEqual({ effort: 'low', format: { type: 'json_schema', schema } });
    expect(body().tools).toBeUndefined();
    expect(response.message.content).toBe('{"summary":"sunny"}');
  });

  describe('with structuredOutput: tool', () => {
    const schema = { type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'] };
    const toolAnswer = async (calls: Array<{ id: string; name: string; input: unknown }>) => ({
      ...((await readJsonFixture(fixture('anthropic-text.json'))) as object),
      content: calls.map((call) => ({ type: 'tool_use', ...call })),
      stop_reason: 'tool_use',
    });

    it('forces the output tool and returns its input as the answer text', async () => {
      server.reply({
        kind: 'json',
        body: await toolAnswer([{ id: 'toolu_1', name: 'answer', input: { summary: 'sunny' } }]),
      });
      const response = await adapter({ structuredOutput: 'tool' }).generate({
        messages: question,
        schema: { name: 'answer', jsonSchema: schema },
      });
      expect(body().tools).toEqual([
        { name: 'answer', description: expect.stringContaining('final answer'), input_schema: schema },
      ]);
      expect(body().tool_choice).toEqual({ type: 'tool', name: 'answer' });
      expect(body().output_config).toBeUndefined();
      expect(response.message).toEqual({ role: 'assistant', content: '{"summary":"sunny"}' });
      expect(response.finishReason).toEqual({ unified: 'stop', raw: 'tool_use' });
    });

    it('lets the model reach the real tools (any tool), and returns their calls', async () => {
      server.reply({
        kind: 'json',
        body: await toolAnswer([{ id: 'toolu_2', name: 'get_weather', input: { city: 'Paris' } }]),
      });
      const response = await adapter({ structuredOutput: 'tool' }).generate({
        messages: question,
        tools: [weatherTool],
        schema: { name: 'answer', jsonSchema: schema },
      });
      expect((body().tools as Array<{ name: string }>).map((tool) => tool.name)).toEqual([
        'get_weather',
        'answer',
      ]);
      expect(body().tool_choice).toEqual({ type: 'any' });
      expect(response.message.tool_calls?.map((call) => call.function.name)).toEqual(['get_weather']);
      expect(response.finishReason.unified).toBe('tool_calls');
    });

    it('leaves tool choice on auto when thinking is on (the API refuses forced tools then)', async () => {
      server.reply({ kind: 'json', body: await toolAnswer([{ id: 't', name: 'answer', input: {} }]) });
      await adapter({ structuredOutput: 'tool', thinking: { type: 'adaptive' } }).generate({
        messages: question,
        schema: { name: 'answer', jsonSchema: schema },
      });
      expect(body().tool_choice).toEqual({ type: 'auto' });
    });
  });

  describe('prompt caching', () => {
    const marked = (count: number): Message[] => [
      { role: 'system', content: 'You are terse.', _cache_breakpoint: true },
      ...Array.from({ length: count - 1 }, (_, index): Message[] => [
        { role: 'user', content: `question ${index}`, _cache_breakpoint: true },
        { role: 'assistant', content: `answer ${index}` },
      ]).flat(),
      { role: 'user', content: 'last question' },
    ];
    const cacheControls = (request: AnthropicBody): unknown[] =>
      [
        ...(request.system as Array<Record<string, unknown>>),
        ...request.messages.flatMap((message) =>
          typeof message.content === 'string' ? [] : message.content,
        ),
      ].flatMap((block) => (block.cache_control ? [block.cache_control] : []));

    it('sends the breakpoints of marked messages, each with the TTL asked for', async () => {
      server.reply({ kind: 'json', body: await readJsonFixture(fixture('anthropic-text.json')) });
      await adapter({ cacheTtl: '1h' }).generate({ messages: marked(2) });
      expect(body().system).toEqual([
        { type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral', ttl: '1h' } },
      ]);
      expect(cacheControls(body())).toHaveLength(2);
      expect(body().cache_control).toBeUndefined();
    });

    it('adds automatic caching and keeps the total within the four breakpoints the API takes', async () => {
      server.reply({ kind: 'json', body: await readJsonFixture(fixture('anthropic-text.json')) });
      const warnings: CompileWarning[] = [];
      await adapter({ autoCache: true, onWarning: (warning) => warnings.push(warning) }).generate({
        messages: marked(4),
      });
      expect(body().cache_control).toEqual({ type: 'ephemeral' });
      expect(cacheControls(body())).toHaveLength(3);
      expect(body().system).toEqual([{ type: 'text', text: 'You are terse.' }]);
      expect(warnings).toEqual([expect.objectContaining({ code: 'cache-breakpoints-limited' })]);
    });
  });

  describe('with onDelta', () => {
    it('streams thinking, text and tool-call deltas and keeps the streamed signature', async () => {
      server.reply({
        kind: 'sse',
        chunks: await readChunksFixture(fixture('anthropic-thinking-tool-use.chunks.txt')),
      });
      const deltas: ModelDelta[] = [];
      const response = await adapter().generate({
        messages: question,
        tools: [weatherTool],
        onDelta: (delta) => deltas.push(delta),
      });
      expect(body().stream).toBe(true);
      expect(deltas).toEqual([
        { type: 'reasoning-delta', text: 'The user wants the weather.' },
        { type: 'reasoning-delta', text: ' Call get_weather.' },
        { type: 'text-delta', text: 'Let me' },
        { type: 'text-delta', text: ' check.' },
        { type: 'tool-call-delta', index: 0, id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather' },
        { type: 'tool-call-delta', index: 0, argumentsDelta: '{"city": "Pa' },
        { type: 'tool-call-delta', index: 0, argumentsDelta: 'ris"}' },
      ]);
      expect(response).toEqual({
        message: {
          role: 'assistant',
          content: 'Let me check.',
          tool_calls: [
            {
              id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city": "Paris"}' },
            },
          ],
          thinking: {
            thinking: 'The user wants the weather. Call get_weather.',
            signature: 'EqQBCgIYAhIMStreamedSignatureXyZ==',
          },
        },
        usage: {
          promptTokens: 668,
          completionTokens: 89,
          totalTokens: 757,
          details: { cacheReadTokens: 256 },
        },
        finishReason: { unified: 'tool_calls', raw: 'tool_use' },
      });
    });

    it('streams the output tool input as text in tool mode', async () => {
      const start = (await readChunksFixture(fixture('anthropic-thinking-tool-use.chunks.txt')))[0];
      server.reply({
        kind: 'sse',
        chunks: [
          start,
          {
            type: 'content_block_start',
            index: 0,
            content_block: { type: 'tool_use', id: 't', name: 'answer', input: {} },
          },
          {
            type: 'content_block_delta',
            index: 0,
            delta: { type: 'input_json_delta', partial_json: '{"summary":' },
          },
          {
            type: 'content_block_delta',
            index: 0,
            delta: { type: 'input_json_delta', partial_json: '"sunny"}' },
          },
          { type: 'content_block_stop', index: 0 },
          { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 9 } },
          { type: 'message_stop' },
        ],
      });
      const deltas: ModelDelta[] = [];
      const response = await adapter({ structuredOutput: 'tool' }).generate({
        messages: question,
        schema: { name: 'answer', jsonSchema: { type: 'object' } },
        onDelta: (delta) => deltas.push(delta),
      });
      expect(deltas).toEqual([
        { type: 'text-delta', text: '{"summary":' },
        { type: 'text-delta', text: '"sunny"}' },
      ]);
      expect(response.message).toEqual({ role: 'assistant', content: '{"summary":"sunny"}' });
    });
  });

  describe('when the provider fails', () => {
    const failure = (
      status: number,
      type: string,
      message: string,
      headers: Record<string, string> = {},
    ) => ({
      kind: 'json' as const,
      status,
      headers,
      body: { type: 'error', error: { type, message }, request_id: 'req_011CSHoEeqs5C35K2UUqR7Fy' },
    });

    it('retries a 429 after the retry-after Anthropic asked for, then succeeds', async () => {
      server.reply(
        failure(429, 'rate_limit_error', 'Number of request tokens has exceeded your rate limit.', {
          'retry-after': '0',
        }),
        {
          kind: 'json',
          body: await readJsonFixture(fixture('anthropic-text.json')),
        },
      );
      const response = await adapter().generate({ messages: question });
      expect(server.requests).toHaveLength(2);
      expect(response.message.content).toBe('It is 18°C and sunny in Paris.');
    });

    it('gives up on 529 overloaded after maxRetries with a retryable ModelCallError', async () => {
      server.reply(failure(529, 'overloaded_error', 'Overloaded', { 'retry-after': '0' }));
      const error = await adapter({ maxRetries: 1 })
        .generate({ messages: question })
        .catch((caught: unknown) => caught);
      expect(server.requests).toHaveLength(2);
      expect(ModelCallError.is(error)).toBe(true);
      expect(error).toMatchObject({
        provider: 'anthropic',
        modelId: 'claude-sonnet-4-5',
        status: 529,
        retryable: true,
        retryAfterSeconds: 0,
      });
      expect((error as Error).message).toContain('Overloaded');
      expect((error as Error).message).toContain('after 2 attempts');
    });

    it('fails fast on a 400 with the API message, and lets x-should-retry: false stop a retry', async () => {
      server.reply(
        failure(400, 'invalid_request_error', 'messages.1.content.0.thinking.signature: Field required'),
      );
      const invalid = await adapter()
        .generate({ messages: question })
        .catch((caught: unknown) => caught);
      expect(server.requests).toHaveLength(1);
      expect(invalid).toMatchObject({ name: 'ModelCallError', status: 400, retryable: false });
      expect((invalid as Error).message).toContain('thinking.signature: Field required');

      server.reply(failure(500, 'api_error', 'Internal server error', { 'x-should-retry': 'false' }));
      const final = await adapter()
        .generate({ messages: question })
        .catch((caught: unknown) => caught);
      expect(server.requests).toHaveLength(2);
      expect(final).toMatchObject({ status: 500, retryable: false });
    });

    it('retries a stream whose error event came before any delta, by the status of its error type', async () => {
      const start = (await readChunksFixture(fixture('anthropic-thinking-tool-use.chunks.txt')))[0];
      server.reply(
        {
          kind: 'sse',
          chunks: [start, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }],
        },
        { kind: 'sse', chunks: await readChunksFixture(fixture('anthropic-thinking-tool-use.chunks.txt')) },
      );
      const response = await adapter().generate({ messages: question, onDelta: () => {} });
      expect(server.requests).toHaveLength(2);
      expect(response.message.content).toBe('Let me check.');

      server.reply({
        kind: 'sse',
        chunks: [start, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }],
      });
      const error = await adapter({ maxRetries: 0 })
        .generate({ messages: question, onDelta: () => {} })
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({ name: 'ModelCallError', status: 529, retryable: true });
    });

    it('turns an unreachable server into a retryable ModelCallError without status', async () => {
      const closed = await startProviderTestServer();
      await closed.close();
      const error = await adapter({ baseURL: closed.url, maxRetries: 0 })
        .generate({ messages: question })
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({ name: 'ModelCallError', status: undefined, retryable: true });
    });

    it('never lets the SDK retry on its own, even with a caller-made client', async () => {
      const { default: Anthropic } = await import('@anthropic-ai/sdk');
      const client = new Anthropic({ apiKey: 'sk-ant-test', baseURL: server.url, maxRetries: 5 });
      server.reply(failure(503, 'api_error', 'unavailable'));
      await expect(
        createAnthropicAdapter({ model: 'claude-sonnet-4-5', client, maxRetries: 0 }).generate({
          messages: question,
        }),
      ).rejects.toMatchObject({ status: 503 });
      expect(server.requests).toHaveLength(1);
    });
  });

  it('rejects with the abort reason when a stream is cancelled', async () => {
    server.reply({ kind: 'hang' });
    const controller = new AbortController();
    const pending = adapter().generate({ messages: question, signal: controller.signal, onDelta: () => {} });
    await vi.waitFor(() => expect(server.requests).toHaveLength(1));
    controller.abort(new Error('run cancelled'));
    await expect(pending).rejects.toThrow('run cancelled');
  });

  it('reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL from the environment', async () => {
    const saved = { ...process.env };
    process.env.ANTHROPIC_API_KEY = 'sk-ant-from-env';
    process.env.ANTHROPIC_BASE_URL = server.url;
    try {
      server.reply({ kind: 'json', body: await readJsonFixture(fixture('anthropic-text.json')) });
      await createAnthropicAdapter({ model: 'claude-haiku-4-5' }).generate({ messages: question });
      expect(server.requests[0]!.headers.authorization).toBe('Bearer sk-ant-from-env');
    } finally {
      process.env = saved;
    }
  });
});

describe('toAnthropicMessages', () => {
  it('leaves system text out and puts tool results in a user turn', () => {
    const messages = toAnthropicMessages([
      ...question,
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'sunny', _tool_error: true },
    ]);
    expect(messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'c1', name: 'get_weather', input: { city: 'Paris' } }],
      },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'c1', content: 'sunny', is_error: true }],
      },
    ]);
  });
});
