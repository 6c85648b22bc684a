import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../agent/create-agent.js';
import type { AgentStreamEvent } from '../context/agent-stream-event.js';
import type { SeedAgentStreamEvent } from '../context/seed-stream-event.js';
import { equipTool } from '../hooks/equip-tool.js';
import { onStream } from '../hooks/on-stream.js';
import { createMockModel } from '../testing/index.js';
import { keysFitSchema, parsePartialJson } from './partial-json.js';
import { promptAgent } from './prompt-agent.js';
import { promptChat } from './prompt-chat.js';

describe('parsePartialJson', () => {
  it.each([
    ['{"title":"Hel', { title: 'Hel' }],
    ['{"title":"Hello","tags":["a","b', { title: 'Hello', tags: ['a', 'b'] }],
    ['{"title":"Hello","n":1', { title: 'Hello', n: 1 }],
    ['{"title":"Hello","done":tr', { title: 'Hello' }],
    ['{"title":"Hello","ta', { title: 'Hello' }],
    ['{"title":"Hello",', { title: 'Hello' }],
    ['{"a":{"b":', { a: {} }],
    ['Sure! ```json\n{"x": [1, 2', { x: [1, 2] }],
    ['{', {}],
  ])('completes %j as far as it goes', (text, value) => {
    expect(parsePartialJson(text)).toEqual({ value, complete: false });
  });

  it('says when the JSON is complete, and gives nothing for prose', () => {
    expect(parsePartialJson('{"a":1} trailing chatter')).toEqual({ value: { a: 1 }, complete: true });
    expect(parsePartialJson('no json here')).toBeUndefined();
  });

  it('checks top-level keys against a closed schema, branches included', () => {
    const schema = z.toJSONSchema(z.object({ title: z.string(), n: z.number() })) as Record<string, unknown>;
    expect(keysFitSchema({ title: 'x' }, schema)).toBe(true);
    expect(keysFitSchema({ other: 1 }, schema)).toBe(false);
    const union = {
      anyOf: [schema, { type: 'object', properties: { alt: {} }, additionalProperties: false }],
    };
    expect(keysFitSchema({ alt: 1, title: 'x' }, union)).toBe(true);
    expect(keysFitSchema({ other: 1 }, { type: 'object', properties: { a: {} } })).toBe(true);
  });
});

function collecting(events: AgentStreamEvent[]) {
  return async (stream: AsyncIterable<AgentStreamEvent>) => {
    for await (const event of stream) events.push(event);
  };
}

describe('structured-data stream events', () => {
  it('stream the schema-constrained answer as it is parsed, then complete, before turn-end', async () => {
    const mock = createMockModel().setDefaultResponse({ title: 'A long day', tags: ['x', 'y'] });
    const events: AgentStreamEvent[] = [];
    const Agent = createAgent({
      id: 'structured',
      model: mock,
      handler: async () => {
        onStream(collecting(events));
        return promptAgent(z.object({ title: z.string(), tags: z.array(z.string()) }));
      },
    });
    await Agent();
    const structured = events.filter((event) => event.type === 'structured-data');
    expect(structured.length).toBeGreaterThan(1);
    expect(structured.slice(0, -1).every((event) => event.status === 'streaming' && event.isValid)).toBe(
      true,
    );
    expect(structured.at(-1)).toMatchObject({
      status: 'complete',
      isValid: true,
      data: { title: 'A long day', tags: ['x', 'y'] },
    });
    const types = events.map((event) => event.type);
    expect(types.lastIndexOf('structured-data')).toBeLessThan(types.indexOf('turn-end'));
  });

  it('report invalid keys with isValid false and empty data, and an answer that is no JSON as error', async () => {
    const mock = createMockModel();
    mock.sequence(['{"unexpected": 1}', 'not json at all', { json: { title: 'ok' } }]);
    const events: AgentStreamEvent[] = [];
    const Agent = createAgent({
      id: 'structured-bad',
      model: mock,
      maxRetries: 3,
      handler: async () => {
        onStream(collecting(events));
        return promptAgent(z.object({ title: z.string() }));
      },
    });
    await expect(Agent()).resolves.toEqual({ title: 'ok' });
    const finals = events.filter((event) => event.type === 'structured-data' && event.status !== 'streaming');
    expect(finals.map((event) => event.type === 'structured-data' && [event.status, event.isValid])).toEqual([
      ['complete', false],
      ['error', false],
      ['complete', true],
    ]);
    expect(finals[0]).toMatchObject({ data: {} });
  });

  it('without a schema report only JSON objects, never prose', async () => {
    const mock = createMockModel().setDefaultResponse('Just some words, nothing structured.');
    const events: AgentStreamEvent[] = [];
    const Agent = createAgent({
      id: 'prose',
      model: mock,
      handler: async () => {
        onStream(collecting(events));
        return (await promptChat({ message: 'hi' })).data;
      },
    });
    await Agent();
    expect(events.some((event) => event.type === 'structured-data')).toBe(false);
  });
});

describe('onStream with the seed event names', () => {
  it('delivers the same events under the seed names, in the same order', async () => {
    const mock = createMockModel();
    mock.sequence([{ toolCalls: [{ id: 'c1', name: 'noop', arguments: {} }] }, { json: { title: 'done' } }]);
    const ours: AgentStreamEvent[] = [];
    const seed: SeedAgentStreamEvent[] = [];
    const Agent = createAgent({
      id: 'seed-names',
      model: mock,
      handler: async () => {
        onStream(collecting(ours));
        onStream(
          async (stream) => {
            for await (const event of stream) seed.push(event);
          },
          { eventNames: 'seed' },
        );
        equipTool({ name: 'noop', description: 'nothing', parameters: z.object({}), handler: () => 'ok' });
        return promptAgent(z.object({ title: z.string() }));
      },
    });
    await Agent();
    expect(seed).toHaveLength(ours.length);
    const names = [...new Set(seed.map((event) => event.type))];
    expect(names).toEqual(
      expect.arrayContaining([
        'turn_start',
        'tool_call_stream',
        'tool_call',
        'text',
        'structured_data',
        'usage',
        'turn_done',
      ]),
    );
    expect(seed.find((event) => event.type === 'tool_call')).toMatchObject({
      toolCall: { id: 'c1', name: 'noop', arguments: '{}' },
    });
    const partial = seed.find((event) => event.type === 'structured_data');
    expect(partial).toMatchObject({ status: 'partial' });
    expect(seed.at(-1)?.type).toBe('turn_done');
  });
});
