import {
  createAgent,
  equipTool,
  isToolContent,
  promptAgent,
  runAgent,
  TOOL_CONTENT_KEY,
  type ToolRunContext,
} from '@flotilla/runtime';
import { createMockModel } from '@flotilla/runtime/testing';
import { DynamicStructuredTool, DynamicTool, tool } from '@langchain/core/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fromLangChainTool } from './from-langchain-tool.js';
import { LangChainToolError } from './langchain-tool-error.js';

const toolRun = (signal = new AbortController().signal): ToolRunContext => ({
  idempotencyKey: 'test',
  signal,
  toolCallId: 'call',
  agentId: 'test',
});

const add = tool(async ({ a, b }: { a: number; b: number }) => String(a + b), {
  name: 'add',
  description: 'Adds two numbers',
  schema: z.object({ a: z.number().describe('first addend'), b: z.number() }),
});

describe('fromLangChainTool', () => {
  it('lets the model call a tool() tool and returns its plain result unchanged', async () => {
    const mock = createMockModel().sequence([
      { toolCalls: [{ id: 'c1', name: 'add', arguments: { a: 2, b: 3 } }] },
      { json: { answer: '5' } },
    ]);
    const Agent = createAgent<undefined, unknown>({
      id: 'calculator',
      model: 'mock',
      handler: async () => {
        equipTool(fromLangChainTool(add));
        return promptAgent(z.object({ answer: z.string() }));
      },
    });
    await runAgent(Agent, undefined, { models: { mock } });
    const sent = mock.calls.first?.tools?.[0];
    expect(sent).toMatchObject({
      name: 'add',
      description: 'Adds two numbers',
      parameters: {
        properties: { a: { type: 'number', description: 'first addend' }, b: { type: 'number' } },
      },
    });
    expect(mock.calls.last?.messages.find((message) => message.role === 'tool')?.content).toBe('5');
  });

  it('converts the schema so bad arguments are rejected before the tool runs', () => {
    const definition = fromLangChainTool(add);
    expect(definition.parameters.safeParse({ a: 1, b: 2 }).success).toBe(true);
    expect(definition.parameters.safeParse({ a: '1', b: 2 }).success).toBe(false);
  });

  it('accepts a DynamicStructuredTool with a JSON Schema, and renames on request', async () => {
    const lookup = new DynamicStructuredTool({
      name: 'lookup',
      description: 'Looks a word up',
      schema: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
      func: async (input: Record<string, unknown>) => ({ word: input.word, found: true }),
    });
    const definition = fromLangChainTool(lookup, { name: 'dictionary_lookup' });
    expect(definition.name).toBe('dictionary_lookup');
    expect(definition.parameters.safeParse({}).success).toBe(false);
    expect(await definition.handler({ word: 'ship' }, toolRun())).toEqual({ word: 'ship', found: true });
  });

  it('can be called with its arguments only, as code written for the seed API does', async () => {
    const converted = fromLangChainTool(add);
    const call = converted.handler as (args: { a: number; b: number }) => Promise<unknown>;
    await expect(call({ a: 4, b: 5 })).resolves.toBe('9');
  });

  it('passes a DynamicTool its string input', async () => {
    const shout = new DynamicTool({
      name: 'shout',
      description: 'Upper-cases',
      func: async (text) => text.toUpperCase(),
    });
    expect(await fromLangChainTool(shout).handler({ input: 'ahoy' }, toolRun())).toBe('AHOY');
  });

  it('turns classic image_url and standard image blocks into image parts', async () => {
    const camera = tool(
      async () => [
        { type: 'text', text: 'three views' },
        { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
        { type: 'image', source_type: 'base64', data: 'AAAA', mime_type: 'image/jpeg' },
        { type: 'image', url: 'https://example.com/b.webp' },
        { type: 'image', data: 'BBBB', mimeType: 'image/gif' },
      ],
      { name: 'camera', description: 'Takes pictures', schema: z.object({}) },
    );
    const result = await fromLangChainTool(camera).handler({}, toolRun());
    expect(isToolContent(result) && result[TOOL_CONTENT_KEY]).toEqual([
      { type: 'text', text: 'three views' },
      { type: 'image', image: { url: 'https://example.com/a.png' } },
      { type: 'image', image: { url: 'data:image/jpeg;base64,AAAA' } },
      { type: 'image', image: { url: 'https://example.com/b.webp' } },
      { type: 'image', image: { url: 'data:image/gif;base64,BBBB' } },
    ]);
  });

  it('gives the model the image of a tool result as an attachment', async () => {
    const camera = tool(
      async () => [{ type: 'image', source_type: 'url', url: 'https://example.com/c.png' }],
      {
        name: 'camera',
        description: 'Takes a picture',
        schema: z.object({}),
      },
    );
    const mock = createMockModel().sequence([
      { toolCalls: [{ id: 'c1', name: 'camera', arguments: {} }] },
      { json: { answer: 'a picture' } },
    ]);
    const Agent = createAgent<undefined, unknown>({
      id: 'photographer',
      model: 'mock',
      handler: async () => {
        equipTool(fromLangChainTool(camera));
        return promptAgent(z.object({ answer: z.string() }));
      },
    });
    await runAgent(Agent, undefined, { models: { mock } });
    const message = mock.calls.last?.messages.find((entry) => entry.role === 'tool');
    expect(message?.attachments).toEqual([
      { mediaType: 'image/png', data: 'https://example.com/c.png', source: 'url' },
    ]);
  });

  it('leaves text-only block arrays unchanged', async () => {
    const blocks = [{ type: 'text', text: 'just words' }];
    const talker = tool(async () => blocks, { name: 'talker', description: 'Talks', schema: z.object({}) });
    expect(await fromLangChainTool(talker).handler({}, toolRun())).toEqual(blocks);
  });

  it('wraps the tool’s failure in a LangChainToolError naming the tool', async () => {
    const broken = tool(
      async () => {
        throw new Error('quota exceeded');
      },
      { name: 'broken', description: 'Fails', schema: z.object({}) },
    );
    const attempt = fromLangChainTool(broken).handler({}, toolRun());
    await expect(attempt).rejects.toSatisfy(LangChainToolError.is);
    await expect(attempt).rejects.toThrow('LangChain tool "broken" failed: quota exceeded');
  });

  it('hands the run’s abort signal to the tool', async () => {
    let received: AbortSignal | undefined;
    const watcher = tool(
      async (_input: Record<string, never>, config) => {
        received = config?.signal;
        return 'ok';
      },
      { name: 'watcher', description: 'Watches', schema: z.object({}) },
    );
    const controller = new AbortController();
    await fromLangChainTool(watcher).handler({}, toolRun(controller.signal));
    controller.abort();
    expect(received?.aborted).toBe(true);
  });

  it('rejects something that is not a LangChain tool', () => {
    expect(() => fromLangChainTool({ name: 'x', description: 'y' } as never)).toThrow(TypeError);
  });
});
