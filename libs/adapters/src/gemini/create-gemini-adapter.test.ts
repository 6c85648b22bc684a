import type { CompileWarning, Message } from '@flotilla/ir';
import type { ModelDelta } from '@flotilla/runtime';
import { ModelCallError } from '@flotilla/runtime';
import { describe, expect, it, vi } from 'vitest';
import { readChunksFixture, readJsonFixture } from '../shared/provider-test-server.js';
import { geminiRules } from '../shared/provider-wire-rules.js';
import { useProviderTestServer, weatherTool } from '../shared/use-provider-test-server.js';
import { createGeminiAdapter } from './create-gemini-adapter.js';
import { toGeminiMessages } from './to-gemini-messages.js';

const fixture = (name: string): URL => new URL(`./__fixtures__/${name}`, import.meta.url);

const question: Message[] = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: 'Weather in Paris?' },
];

interface GeminiBody {
  contents: Array<{ role: string; parts: Array<Record<string, unknown>> }>;
  [key: string]: unknown;
}

const server = useProviderTestServer({ validate: geminiRules });

function adapter(extra: Partial<Parameters<typeof createGeminiAdapter>[0]> = {}) {
  return createGeminiAdapter({
    model: 'gemini-2.5-flash',
    apiKey: 'gemini-test-key',
    baseUrl: server.url,
    retryBaseDelayMs: 1,
    ...extra,
  });
}

describe('createGeminiAdapter', () => {
  it('sends contents, system instruction, function declarations and tool config through the SDK', async () => {
    server.reply({ kind: 'json', body: await readJsonFixture(fixture('gemini-text.json')) });
    await adapter({ temperature: 0, maxTokens: 256 }).generate({
      messages: question,
      tools: [weatherTool],
      toolChoice: { type: 'function', function: { name: 'get_weather' } },
    });
    const request = server.requests[0]!;
    expect(request.url).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(request.headers['x-goog-api-key']).toBe('gemini-test-key');
    const body = request.body as GeminiBody;
    expect(body.contents).toEqual([{ role: 'user', parts: [{ text: 'Weather in Paris?' }] }]);
    expect(body.systemInstruction).toMatchObject({ parts: [{ text: 'You are terse.' }] });
    expect(body.tools).toEqual([
      {
        functionDeclarations: [
          expect.objectContaining({ name: 'get_weather', description: 'Current weather of a city' }),
        ],
      },
    ]);
    expect(body.toolConfig).toEqual({
      functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] },
    });
    expect(body.generationConfig).toEqual({ temperature: 0, maxOutputTokens: 256 });
  });

  it('returns function calls with their thought signatures, generated ids and a tool_calls finish', async () => {
    server.reply({ kind: 'json', body: await readJsonFixture(fixture('gemini-function-call.json')) });
    const response = await adapter().generate({ messages: question, tools: [weatherTool] });
    expect(response.message).toEqual({
      role: 'assistant',
      content: '',
      tool_calls: [
        {
          id: 'nHwLacP2Ko-1qtsPnqWD2Ag-0',
          type: 'function',
          function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          thoughtSignature: 'CiQB0e2Kb7xQ1cY3mZsT9vWq2rXyZa5bC6dE7fG8hI9jK0lMnOp=',
        },
        {
          id: 'nHwLacP2Ko-1qtsPnqWD2Ag-1',
          type: 'function',
          function: { name: 'get_time', arguments: '{}' },
        },
      ],
    });
    expect(response.finishReason).toEqual({ unified: 'tool_calls', raw: 'STOP' });
    expect(response.usage).toEqual({
      promptTokens: 61,
      completionTokens: 119,
      totalTokens: 180,
      details: { reasoningTokens: 88 },
    });
  });

  it('sends the signatures back next turn, with named function responses and tool media as inline data', async () => {
    server.reply({ kind: 'json', body: await readJsonFixture(fixture('gemini-function-call.json')) });
    const first = await adapter().generate({ messages: question, tools: [weatherTool] });
    const [weather, time] = first.message.tool_calls!;
    server.reply({ kind: 'json', body: await readJsonFixture(fixture('gemini-text.json')) });
    await adapter().generate({
      tools: [weatherTool],
      messages: [
        ...question,
        first.message,
        { role: 'tool', tool_call_id: weather!.id, content: '{"celsius":18}' },
        {
          role: 'tool',
          tool_call_id: time!.id,
          content: '',
          attachments: [{ mediaType: 'image/png', data: 'iVBORw0KGgo=', source: 'base64' }],
        },
      ],
    });
    const contents = (server.requests[1]!.body as GeminiBody).contents;
    const parts = contents.flatMap((content) =>
      content.parts.map((part) => ({ role: content.role, ...part })),
    );
    expect(parts).toContainEqual(
      expect.objectContaining({
        role: 'model',
        functionCall: expect.objectContaining({ name: 'get_weather', args: { city: 'Paris' } }),
        thoughtSignature: 'CiQB0e2Kb7xQ1cY3mZsT9vWq2rXyZa5bC6dE7fG8hI9jK0lMnOp=',
      }),
    );
    expect(parts).toContainEqual(
      expect.objectContaining({
        role: 'user',
        functionResponse: expect.objectContaining({ name: 'get_weather', response: { celsius: 18 } }),
      }),
    );
    expect(parts).toContainEqual(
      expect.objectContaining({ functionResponse: expect.objectContaining({ name: 'get_time' }) }),
    );
    expect(parts).toContainEqual({
      role: 'user',
      inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' },
    });
  });

  it('lets Gemini 3 accept a tool loop begun on another provider: unsigned current-turn calls skip the check', async () => {
    server.reply({ kind: 'json', body: await readJsonFixture(fixture('gemini-text.json')) });
    const warnings: CompileWarning[] = [];
    const call = (id: string) => ({
      id,
      type: 'function' as const,
      function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
    });
    await adapter({ onWarning: (warning) => warnings.push(warning) }).generate({
      tools: [weatherTool],
      messages: [
        ...question,
        { role: 'assistant', content: '', tool_calls: [call('call_old')] },
        { role: 'tool', tool_call_id: 'call_old', content: 'sunny' },
        { role: 'assistant', content: 'Sunny.' },
        { role: 'user', content: 'And tomorrow?' },
        { role: 'assistant', content: '', tool_calls: [call('call_1'), call('call_2')] },
        { role: 'tool', tool_call_id: 'call_1', content: 'rain' },
        { role: 'tool', tool_call_id: 'call_2', content: 'rain' },
      ],
    });
    expect(server.requests).toHaveLength(1);
    const calls = (server.requests[0]!.body as GeminiBody).contents
      .flatMap((content) => content.parts)
      .filter((part) => part.functionCall);
    expect(calls.map((part) => part.thoughtSignature)).toEqual([
      undefined,
      'skip_thought_signature_validator',
      undefined,
    ]);
    expect(warnings.map((warning) => warning.code)).toEqual(['thought-signature-skipped']);
  });

  it('asks for JSON output with the schema and keeps the signature of a signed text part', async () => {
    server.reply({ kind: 'json', body: await readJsonFixture(fixture('gemini-text.json')) });
    const schema = { type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'] };
    const response = await adapter().generate({
      messages: question,
      schema: { name: 'answer', jsonSchema: schema },
    });
    expect((server.requests[0]!.body as GeminiBody).generationConfig).toEqual({
      responseMimeType: 'application/json',
      responseJsonSchema: schema,
    });
    expect(response.message).toEqual({
      role: 'assistant',
      content: 'It is 18°C and sunny in Paris.',
      _gemini_thought_signature: 'Cs4BAdHtim9Rk1y7gHcT2pLz8qW3eR4tY5uI6oP7aS8dF9gH0jK=',
    });
    expect(response.finishReason).toEqual({ unified: 'stop', raw: 'STOP' });
  });

  it('streams thoughts and text through generateContentStream', async () => {
    server.reply({ kind: 'sse', chunks: await readChunksFixture(fixture('gemini-text.chunks.txt')) });
    const deltas: ModelDelta[] = [];
    const response = await adapter().generate({ messages: question, onDelta: (delta) => deltas.push(delta) });
    expect(server.requests[0]!.url).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    expect(deltas).toEqual([
      { type: 'reasoning-delta', text: '**Checking the forecast**\nThe user wants the weather.' },
      { type: 'text-delta', text: 'It is sunny' },
      { type: 'text-delta', text: ' in Paris.' },
    ]);
    expect(response.message).toEqual({
      role: 'assistant',
      content: 'It is sunny in Paris.',
      thinking: { thinking: '**Checking the forecast**\nThe user wants the weather.' },
      _gemini_thought_signature: 'CjYBAdHtim8abc123SignedTextPartXyZ=',
    });
    expect(response.usage).toEqual({
      promptTokens: 20,
      completionTokens: 38,
      totalTokens: 58,
      details: { reasoningTokens: 32 },
    });
  });

  describe('when the provider fails', () => {
    const exhausted = {
      kind: 'json' as const,
      status: 429,
      body: {
        error: {
          code: 429,
          message: 'You exceeded your current quota.',
          status: 'RESOURCE_EXHAUSTED',
          details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '0s' }],
        },
      },
    };

    it('retries a 429 after the RetryInfo delay, then succeeds', async () => {
      server.reply(exhausted, { kind: 'json', body: await readJsonFixture(fixture('gemini-text.json')) });
      const response = await adapter().generate({ messages: question });
      expect(server.requests).toHaveLength(2);
      expect(response.message.content).toBe('It is 18°C and sunny in Paris.');
    });

    it('gives up after maxRetries with a retryable ModelCallError', async () => {
      server.reply(exhausted);
      const failure = await adapter({ maxRetries: 1 })
        .generate({ messages: question })
        .catch((error: unknown) => error);
      expect(server.requests).toHaveLength(2);
      expect(ModelCallError.is(failure)).toBe(true);
      expect(failure).toMatchObject({
        provider: 'gemini',
        status: 429,
        retryable: true,
        retryAfterSeconds: 0,
      });
      expect((failure as Error).message).toContain('You exceeded your current quota.');
    });

    it('fails fast on a 400 with a non-retryable ModelCallError', async () => {
      server.reply({
        kind: 'json',
        status: 400,
        body: {
          error: {
            code: 400,
            message: 'Function call is missing a thought_signature.',
            status: 'INVALID_ARGUMENT',
          },
        },
      });
      const failure = await adapter()
        .generate({ messages: question })
        .catch((error: unknown) => error);
      expect(server.requests).toHaveLength(1);
      expect(failure).toMatchObject({ name: 'ModelCallError', status: 400, retryable: false });
      expect((failure as Error).message).toContain('missing a thought_signature');
    });

    it('never lets the SDK retry on its own, even with retries configured on the client', async () => {
      const { GoogleGenAI } = await import('@google/genai');
      const client = new GoogleGenAI({
        apiKey: 'k',
        httpOptions: { baseUrl: server.url, retryOptions: { attempts: 5, initialDelay: 0.001 } },
      });
      server.reply({ kind: 'json', status: 503, body: { error: { code: 503, message: 'overloaded' } } });
      await expect(
        createGeminiAdapter({ model: 'gemini-2.5-flash', client, maxRetries: 0 }).generate({
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
});

describe('toGeminiMessages', () => {
  it('leaves system text out of the contents and names function responses after their call', () => {
    const contents = toGeminiMessages([
      ...question,
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
    ]);
    expect(contents.map((content) => content.role)).toEqual(['user', 'model', 'user']);
    expect(contents[2]?.parts?.[0]?.functionResponse).toMatchObject({ id: 'c1', name: 'get_weather' });
  });
});
