import { fromOpenAIResponses, type Message } from '@flotilla/ir';
import type { ModelDelta } from '@flotilla/runtime';
import { describe, expect, it } from 'vitest';
import { readChunksFixture, readJsonFixture } from '../shared/provider-test-server.js';
import { responsesRules } from '../shared/provider-wire-rules.js';
import { useProviderTestServer, weatherTool } from '../shared/use-provider-test-server.js';
import { createOpenAIAdapter } from './create-openai-adapter.js';

const fixture = (name: string): URL => new URL(`./__fixtures__/${name}`, import.meta.url);

const question: Message[] = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: 'Weather in Paris?' },
];

interface ResponsesBody {
  input: Array<Record<string, unknown>>;
  [key: string]: unknown;
}

const server = useProviderTestServer({ validate: responsesRules });

function adapter(extra: Partial<Parameters<typeof createOpenAIAdapter>[0]> = {}) {
  return createOpenAIAdapter({
    model: 'o4-mini',
    api: 'responses',
    apiKey: 'sk-test',
    baseURL: `${server.url}/v1`,
    retryBaseDelayMs: 1,
    ...extra,
  });
}

describe('createOpenAIAdapter with api: responses', () => {
  it('sends instructions, input items and flat tools, and keeps reasoning items with the tool calls', async () => {
    const recorded = (await readJsonFixture(fixture('responses-reasoning-tool-call.json'))) as {
      output: unknown[];
    };
    server.reply({ kind: 'json', body: recorded });
    const response = await adapter({ reasoningEffort: 'medium' }).generate({
      messages: question,
      tools: [weatherTool],
      toolChoice: { type: 'function', function: { name: 'get_weather' } },
    });

    const request = server.requests[0]!;
    expect(request.url).toBe('/v1/responses');
    expect(request.body).toMatchObject({
      model: 'o4-mini',
      instructions: 'You are terse.',
      tools: [
        expect.objectContaining({
          type: 'function',
          name: 'get_weather',
          parameters: weatherTool.parameters,
        }),
      ],
      tool_choice: { type: 'function', name: 'get_weather' },
      reasoning: { effort: 'medium' },
    });
    expect((request.body as ResponsesBody).input).toEqual([
      expect.objectContaining({ role: 'user', content: [{ type: 'input_text', text: 'Weather in Paris?' }] }),
    ]);
    expect(response.message).toEqual({
      role: 'assistant',
      content: '',
      tool_calls: [
        {
          id: 'call_Zx9Yw8Vu7Ts6',
          type: 'function',
          function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
        },
      ],
      _openai_reasoning: [recorded.output[0]],
    });
    expect(response.finishReason).toEqual({ unified: 'tool_calls', raw: 'completed' });
    expect(response.usage).toEqual({
      promptTokens: 312,
      completionTokens: 150,
      totalTokens: 462,
      details: { reasoningTokens: 128, cacheReadTokens: 256 },
    });
  });

  it('sends the reasoning items back verbatim, before the call they produced, on the next turn', async () => {
    const recorded = (await readJsonFixture(fixture('responses-reasoning-tool-call.json'))) as {
      output: unknown[];
    };
    server.reply({ kind: 'json', body: recorded });
    const first = await adapter().generate({ messages: question, tools: [weatherTool] });
    await adapter().generate({
      messages: [
        ...question,
        first.message,
        { role: 'tool', tool_call_id: 'call_Zx9Yw8Vu7Ts6', content: '18°C' },
      ],
      tools: [weatherTool],
    });
    const input = (server.requests[1]!.body as ResponsesBody).input;
    expect(input.slice(1)).toEqual([
      recorded.output[0],
      expect.objectContaining({ type: 'function_call', call_id: 'call_Zx9Yw8Vu7Ts6', name: 'get_weather' }),
      { type: 'function_call_output', call_id: 'call_Zx9Yw8Vu7Ts6', output: '18°C' },
    ]);
  });

  it('sends an image’s detail read from a Responses payload on its input_image', async () => {
    server.reply({
      kind: 'json',
      body: await readJsonFixture(fixture('responses-reasoning-tool-call.json')),
    });
    const { history } = fromOpenAIResponses([
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'What is this?' },
          { type: 'input_image', image_url: 'https://example.com/cat.jpg', detail: 'original' },
          { type: 'input_image', file_id: 'file-abc', detail: 'low' },
        ],
      },
    ]);
    await adapter().generate({ messages: history });
    expect((server.requests[0]!.body as ResponsesBody).input).toEqual([
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: 'What is this?' },
          { type: 'input_image', image_url: 'https://example.com/cat.jpg', detail: 'original' },
          { type: 'input_image', file_id: 'file-abc', detail: 'low' },
        ],
      },
    ]);
  });

  it('streams structured output requested through text.format', async () => {
    server.reply({ kind: 'sse', chunks: await readChunksFixture(fixture('responses-text.chunks.txt')) });
    const schema = {
      type: 'object',
      properties: { answer: { type: 'string' } },
      required: ['answer'],
      additionalProperties: false,
    };
    const deltas: ModelDelta[] = [];
    const response = await adapter({ model: 'gpt-4.1-mini' }).generate({
      messages: question,
      schema: { name: 'answer', jsonSchema: schema },
      onDelta: (delta) => deltas.push(delta),
    });
    expect(server.requests[0]!.body).toMatchObject({
      stream: true,
      text: { format: { type: 'json_schema', name: 'answer', schema, strict: true } },
    });
    expect(deltas).toEqual([
      { type: 'text-delta', text: '{"answer":' },
      { type: 'text-delta', text: '"Paris"}' },
    ]);
    expect(JSON.parse(response.message.content)).toEqual({ answer: 'Paris' });
    expect(response.finishReason).toEqual({ unified: 'stop', raw: 'completed' });
    expect(response.usage).toEqual({ promptTokens: 40, completionTokens: 7, totalTokens: 47 });
  });

  it('rejects with a ModelCallError when the stream reports an error', async () => {
    server.reply({
      kind: 'sse',
      chunks: [
        {
          type: 'error',
          sequence_number: 0,
          code: 'server_error',
          message: 'The server had an error',
          param: null,
        },
      ],
    });
    await expect(
      adapter({ maxRetries: 0 }).generate({ messages: question, onDelta: () => {} }),
    ).rejects.toMatchObject({
      name: 'ModelCallError',
      provider: 'openai',
      message: expect.stringContaining('The server had an error'),
    });
  });
});
