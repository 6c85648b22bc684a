/**
 * What code written for the seed agent API sends through the real OpenAI SDK: a stored history
 * in the seed's message format (image `detail` kept end to end), `modelId` instead of `model`,
 * and strict role alternation for OpenAI-compatible backends that need it.
 */
import { createAgent, promptChat } from '@flotilla/runtime';
import { describe, expect, it } from 'vitest';
import { createAnthropicAdapter } from '../anthropic/create-anthropic-adapter.js';
import { createGeminiAdapter } from '../gemini/create-gemini-adapter.js';
import { InvalidAdapterOptionsError } from '../shared/model-name-option.js';
import { readJsonFixture } from '../shared/provider-test-server.js';
import { chatCompletionsRules } from '../shared/provider-wire-rules.js';
import { useProviderTestServer } from '../shared/use-provider-test-server.js';
import { createOpenAIAdapter } from './create-openai-adapter.js';

const server = useProviderTestServer({ validate: chatCompletionsRules });
const answer = () => readJsonFixture(new URL('./__fixtures__/chat-text.json', import.meta.url));

function chat(model: ReturnType<typeof createOpenAIAdapter>, message: unknown) {
  return createAgent({
    id: 'seed-chat',
    model,
    handler: async () => (await promptChat({ message: message as never })).data,
  })();
}

describe('createOpenAIAdapter with the seed API shapes', () => {
  it('takes modelId, and sends a seed-format history as Chat Completions messages with image detail', async () => {
    server.reply({ kind: 'json', body: await answer() });
    const model = createOpenAIAdapter({
      modelId: 'gpt-4.1-mini',
      apiKey: 'sk-test',
      baseURL: `${server.url}/v1`,
    });
    expect(model.id).toBe('gpt-4.1-mini');
    await chat(model, [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image', image: { url: 'https://example.com/cat.jpg', detail: 'low' } },
        ],
      },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', name: 'lookup', arguments: '{"q":"cat"}' }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'a cat' },
      { role: 'assistant', content: 'A cat.' },
      { role: 'user', content: 'Sure?' },
    ]);
    const body = server.requests[0]?.body as { model: string; messages: unknown[] };
    expect(body.model).toBe('gpt-4.1-mini');
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg', detail: 'low' } },
        ],
      },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{"q":"cat"}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'a cat' },
      { role: 'assistant', content: 'A cat.' },
      { role: 'user', content: 'Sure?' },
    ]);
  });

  it('merges consecutive same-role messages with mergeConsecutiveSameRole, never tool results', async () => {
    server.reply({ kind: 'json', body: await answer() });
    const model = createOpenAIAdapter({
      model: 'local-llama',
      apiKey: 'none',
      baseURL: `${server.url}/v1`,
      mergeConsecutiveSameRole: true,
    });
    await chat(model, [
      { role: 'user', content: 'First.' },
      { role: 'user', content: 'Second.' },
      { role: 'assistant', content: 'Thinking.' },
      { role: 'user', content: 'Third.' },
    ]);
    const body = server.requests[0]?.body as { messages: unknown[] };
    expect(body.messages).toEqual([
      { role: 'user', content: 'First.\n\nSecond.' },
      { role: 'assistant', content: 'Thinking.' },
      { role: 'user', content: 'Third.' },
    ]);
  });

  it('sends consecutive user messages unmerged by default', async () => {
    server.reply({ kind: 'json', body: await answer() });
    const model = createOpenAIAdapter({
      model: 'gpt-4.1-mini',
      apiKey: 'sk-test',
      baseURL: `${server.url}/v1`,
    });
    await chat(model, [
      { role: 'user', content: 'First.' },
      { role: 'user', content: 'Second.' },
    ]);
    expect(server.requests[0]?.body).toMatchObject({
      messages: [{ content: 'First.' }, { content: 'Second.' }],
    });
  });
});

describe('modelId, the seed name of model', () => {
  it('is accepted by the Gemini and Anthropic adapters too', () => {
    expect(createGeminiAdapter({ modelId: 'gemini-2.5-flash', apiKey: 'k' }).id).toBe('gemini-2.5-flash');
    expect(createAnthropicAdapter({ modelId: 'claude-sonnet-4-5', apiKey: 'k' }).id).toBe(
      'claude-sonnet-4-5',
    );
  });

  it.each([
    ['neither', {}],
    ['an empty one', { modelId: ' ' }],
    ['two different ones', { model: 'a', modelId: 'b' }],
  ])('refuses options that name %s with InvalidAdapterOptionsError', (_, naming) => {
    const create = () => createOpenAIAdapter({ apiKey: 'k', ...(naming as { model: string }) });
    expect(create).toThrow(InvalidAdapterOptionsError);
    expect(create).toThrow(/model/);
  });
});
