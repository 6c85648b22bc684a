import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../agent/create-agent.js';
import { runAgent } from '../agent/run-agent.js';
import type { AgentStreamEvent } from '../context/agent-stream-event.js';
import { equipTool } from '../hooks/equip-tool.js';
import { onStream } from '../hooks/on-stream.js';
import { promptAgent } from '../policy/prompt-agent.js';
import type {
  SeedMessage,
  SeedStreamEvent,
  SeedStreamOptions,
  StreamModelAdapter,
} from './stream-model-adapter.js';

/** A seed-style streaming adapter: first a tool call in two chunks, then a JSON answer in pieces. */
function seedAdapter(seen: { messages: SeedMessage[]; options?: SeedStreamOptions }[]): StreamModelAdapter {
  return {
    id: 'seed-model',
    provider: 'seed',
    async *stream(messages, options): AsyncGenerator<SeedStreamEvent> {
      seen.push({ messages, ...(options ? { options } : {}) });
      if (seen.length === 1) {
        yield { type: 'reasoning', content: 'Need the weather.' };
        yield { type: 'tool_call', toolCall: { index: 0, id: 'w1', name: 'weather', arguments: '{"ci' } };
        yield { type: 'tool_call', toolCall: { index: 0, arguments: 'ty":"Oslo"}' } };
        yield {
          type: 'finish',
          finishReason: 'tool_calls',
          usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 },
        };
        return;
      }
      yield { type: 'text', content: '{"summary":' };
      yield { type: 'text', content: '"cold"}' };
      yield { type: 'usage', usage: { promptTokens: 20, completionTokens: 3, totalTokens: 23 } };
      yield { type: 'finish', finishReason: 'stop' };
    },
  };
}

describe('a streaming (seed API) model adapter', () => {
  it('runs the tool loop: calls folded from chunks, seed-format messages and zod tools passed in, deltas streamed', async () => {
    const seen: { messages: SeedMessage[]; options?: SeedStreamOptions }[] = [];
    const events: AgentStreamEvent[] = [];
    const Agent = createAgent({
      id: 'seed-stream',
      model: seedAdapter(seen),
      handler: async () => {
        onStream(async (stream) => {
          for await (const event of stream) events.push(event);
        });
        equipTool({
          name: 'weather',
          description: 'weather of a city',
          parameters: z.object({ city: z.string() }),
          handler: ({ city }) => `${city}: -5C`,
        });
        return promptAgent(z.object({ summary: z.string() }));
      },
    });
    await expect(Agent()).resolves.toEqual({ summary: 'cold' });
    expect(seen).toHaveLength(2);
    const tool = seen[0]?.options?.tools?.[0];
    expect(tool?.name).toBe('weather');
    expect(tool?.parameters.safeParse({ city: 'Oslo' }).success).toBe(true);
    expect(tool?.jsonSchema).toMatchObject({ type: 'object', properties: { city: { type: 'string' } } });
    expect(seen[0]?.options?.schema).toMatchObject({ type: 'object' });
    const second = seen[1]?.messages ?? [];
    expect(second.at(-2)).toEqual({
      role: 'assistant',
      content: null,
      reasoning_content: 'Need the weather.',
      tool_calls: [{ id: 'w1', name: 'weather', arguments: '{"city":"Oslo"}' }],
    });
    expect(second.at(-1)).toEqual({ role: 'tool', content: 'Oslo: -5C', tool_call_id: 'w1' });
    const texts = events.filter((event) => event.type === 'text-delta');
    expect(texts.length).toBeGreaterThan(0);
  });

  it('is accepted in the models table of a run', async () => {
    const seen: { messages: SeedMessage[] }[] = [];
    const Agent = createAgent({
      id: 'seed-table',
      model: 'seed',
      handler: async () => {
        equipTool({
          name: 'weather',
          description: 'w',
          parameters: z.object({ city: z.string() }),
          handler: () => 'x',
        });
        return promptAgent(z.object({ summary: z.string() }));
      },
    });
    await expect(runAgent(Agent, undefined, { models: { seed: seedAdapter(seen) } })).resolves.toEqual({
      summary: 'cold',
    });
  });

  it('fails the turn with the error event the adapter yields', async () => {
    const broken: StreamModelAdapter = {
      id: 'broken',
      async *stream() {
        yield { type: 'error', error: new Error('upstream exploded') };
      },
    };
    const Agent = createAgent({ id: 'seed-error', model: broken, handler: () => promptAgent(z.object({})) });
    await expect(Agent()).rejects.toThrow('upstream exploded');
  });
});
