/**
 * Tool schemas reach each provider as written, adapted only where the provider requires: the
 * real SDKs send to a local server that records request bodies.
 */
import type { CompileWarning, Message, ToolDefinition } from '@flotilla/ir';
import { createAgent, defineTool, equipTool, jsonSchema, promptAgent, runAgent } from '@flotilla/runtime';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAnthropicAdapter } from '../anthropic/create-anthropic-adapter.js';
import { createGeminiAdapter } from '../gemini/create-gemini-adapter.js';
import { createOpenAIAdapter } from '../openai/create-openai-adapter.js';
import { bookingSchema, bookingSchemaAsSent, closedSchema } from './__fixtures__/booking-schema.js';
import { readJsonFixture } from './provider-test-server.js';
import { useProviderTestServer } from './use-provider-test-server.js';

const server = useProviderTestServer();
const fixture = (path: string): URL => new URL(`../${path}`, import.meta.url);
const question: Message[] = [{ role: 'user', content: 'Book it.' }];
const booking: ToolDefinition = {
  name: 'book',
  description: 'Books a trip',
  parameters: bookingSchemaAsSent,
};
const walker: ToolDefinition = { name: 'walk', description: 'Walks a tree', parameters: closedSchema };

const openai = (api: 'chat' | 'responses') =>
  createOpenAIAdapter({
    model: 'gpt-4.1-mini',
    api,
    apiKey: 'sk-test',
    baseURL: `${server.url}/v1`,
    maxRetries: 0,
  });

async function sentBody(send: () => Promise<unknown>, reply: string): Promise<Record<string, unknown>> {
  server.reply({ kind: 'json', body: await readJsonFixture(fixture(reply)) });
  await send();
  return server.requests[0]?.body as Record<string, unknown>;
}

describe('OpenAI Chat Completions', () => {
  it('sends the schema as written, strict only when every construct allows it', async () => {
    const body = await sentBody(
      () => openai('chat').generate({ messages: question, tools: [booking, walker] }),
      'openai/__fixtures__/chat-text.json',
    );
    expect(body.tools).toEqual([
      {
        type: 'function',
        function: { name: 'book', description: 'Books a trip', parameters: bookingSchemaAsSent },
      },
      {
        type: 'function',
        function: { name: 'walk', description: 'Walks a tree', parameters: closedSchema, strict: true },
      },
    ]);
  });
});

describe('OpenAI Responses', () => {
  it('sends the schema as written, with strict false unless every construct allows it', async () => {
    const body = await sentBody(
      () => openai('responses').generate({ messages: question, tools: [booking, walker] }),
      'openai/__fixtures__/responses-reasoning-tool-call.json',
    );
    expect(body.tools).toEqual([
      {
        type: 'function',
        name: 'book',
        description: 'Books a trip',
        parameters: bookingSchemaAsSent,
        strict: false,
      },
      { type: 'function', name: 'walk', description: 'Walks a tree', parameters: closedSchema, strict: true },
    ]);
  });
});

describe('Anthropic', () => {
  it('sends the schema as written ($ref, $defs, tuples and all)', async () => {
    const adapter = createAnthropicAdapter({
      model: 'claude-sonnet-4-5',
      apiKey: 'sk-ant-test',
      baseURL: server.url,
      maxRetries: 0,
    });
    const body = await sentBody(
      () => adapter.generate({ messages: question, tools: [booking] }),
      'anthropic/__fixtures__/anthropic-text.json',
    );
    expect(body.tools).toEqual([
      { name: 'book', description: 'Books a trip', input_schema: bookingSchemaAsSent },
    ]);
  });
});

describe('Gemini', () => {
  it('sends the subset Gemini accepts and reports every adaptation, naming the tool and path', async () => {
    const warnings: CompileWarning[] = [];
    const adapter = createGeminiAdapter({
      model: 'gemini-2.5-flash',
      apiKey: 'gemini-test-key',
      baseUrl: server.url,
      maxRetries: 0,
      onWarning: (warning) => warnings.push(warning),
    });
    const body = await sentBody(
      () => adapter.generate({ messages: question, tools: [booking] }),
      'gemini/__fixtures__/gemini-text.json',
    );
    const address = {
      type: 'object',
      properties: { city: { type: 'string' }, zip: { type: 'string', pattern: '^[0-9]{5}$' } },
      required: ['city'],
    };
    const node = (items: unknown) => ({
      type: 'object',
      properties: { label: { type: 'string' }, children: { type: 'array', items } },
      required: ['label'],
    });
    // The SDK itself writes types in upper case and turns `anyOf [x, null]` into `nullable`.
    expect(body.tools).toEqual(
      sdkTypeNames([
        {
          functionDeclarations: [
            {
              name: 'book',
              description: 'Books a trip',
              parameters: {
                type: 'object',
                properties: {
                  addr: address,
                  home: { type: 'object', properties: { addr: address } },
                  tree: node(node(node({ type: 'object' }))),
                  pair: {
                    type: 'array',
                    items: { anyOf: [{ type: 'string' }, { type: 'number' }] },
                    minItems: 2,
                    maxItems: 2,
                  },
                  id: { anyOf: [{ type: 'string' }, { type: 'integer', minimum: 1 }] },
                  size: { type: 'number', nullable: true },
                  mode: { enum: ['fast', 'slow'] },
                  kind: { type: 'string', enum: ['search'] },
                  email: { type: 'string' },
                  note: { type: 'string', nullable: true },
                },
                required: ['addr', 'kind'],
              },
            },
          ],
        },
      ]),
    );
    expect(warnings.map((warning) => warning.code)).toEqual([
      'tool-schema-keyword-dropped',
      'tool-schema-ref-inlined',
      'tool-schema-recursion-cut',
      'tool-schema-rewritten',
    ]);
    expect(warnings.find((warning) => warning.code === 'tool-schema-recursion-cut')?.message).toContain(
      'tool "book": cut a recursive schema: /properties/tree/properties/children/items/properties/children/items/properties/children/items: recursive $ref #/$defs/Node cut after 3 levels',
    );
    expect(warnings[0]?.message).toContain('/properties/email: format "email"');
  });
});

/** `type: 'string'` → `type: 'STRING'`, as `@google/genai` sends it. */
function sdkTypeNames(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sdkTypeNames);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      key === 'type' && typeof item === 'string' ? item.toUpperCase() : sdkTypeNames(item),
    ]),
  );
}

describe('arguments the model returns', () => {
  const toolCall = (id: string, args: unknown) => ({
    id: `chatcmpl-${id}`,
    object: 'chat.completion',
    created: 1,
    model: 'gpt-4.1-mini',
    choices: [
      {
        index: 0,
        finish_reason: 'tool_calls',
        message: {
          role: 'assistant',
          content: null,
          tool_calls: [{ id, type: 'function', function: { name: 'book', arguments: JSON.stringify(args) } }],
        },
      },
    ],
  });

  it('are validated against the schema the model was shown: refused with the path, accepted as sent', async () => {
    const received: unknown[] = [];
    const valid = { addr: { city: 'Oslo' }, kind: 'search', pair: ['x', 1], id: 7 };
    const final = {
      ...toolCall('c3', {}),
      choices: [
        { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: '{"answer":"booked"}' } },
      ],
    };
    server.reply(
      { kind: 'json', body: toolCall('c1', { addr: { city: 3 }, kind: 'search', pair: ['x', 'y'] }) },
      { kind: 'json', body: toolCall('c2', valid) },
      { kind: 'json', body: final },
    );
    const Agent = createAgent<undefined, { answer: string }>({
      id: 'booker',
      model: openai('chat'),
      handler: async () => {
        equipTool(
          defineTool({
            name: 'book',
            description: 'Books a trip',
            parameters: jsonSchema(bookingSchema),
            handler: (args) => {
              received.push(args);
              return 'booked';
            },
          }),
        );
        return promptAgent(z.object({ answer: z.string() }));
      },
    });
    expect(await runAgent(Agent, undefined)).toEqual({ answer: 'booked' });
    const first = server.requests[0]?.body as { tools: { function: { parameters: unknown } }[] };
    expect(first.tools[0]?.function.parameters).toEqual(bookingSchemaAsSent);
    const second = server.requests[1]?.body as { messages: { role: string; content: string }[] };
    const refusal = JSON.parse(second.messages.find((message) => message.role === 'tool')?.content ?? '{}');
    expect(refusal).toEqual({
      error: true,
      message:
        'Tool "book" execution failed: Invalid arguments for tool "book": addr.city: must be string; pair.1: must be number',
    });
    expect(received).toEqual([valid]);
  });
});
