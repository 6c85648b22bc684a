/**
 * Shapes a user migrating from the seed agent API meets at once (issue: seed API parity): the
 * seed's message format, its flat tool calls in loop middlewares, plain tool definitions in a
 * fork, `ToolContext.definition`, the seed's tool-content marker, and a primitive called
 * without options.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../agent/create-agent.js';
import { InvalidMessageHistoryError, InvalidPromptRuntimeError } from '../errors/policy-errors.js';
import { equipInstruction } from '../hooks/equip-instruction.js';
import { equipSystem } from '../hooks/equip-system.js';
import { equipTool } from '../hooks/equip-tool.js';
import { equipToolCallLoopMiddleware } from '../hooks/equip-tool-call-loop-middleware.js';
import type { ModelAdapter } from '../model/model-adapter.js';
import { createMockModel } from '../testing/index.js';
import type { LoopToolCall } from '../tools/tool-call-loop-middleware.js';
import type { ToolContext, ToolDefinition } from '../tools/tool-definition.js';
import { createAgentPolicy } from './create-agent-policy.js';
import { executeTools } from './execute-tools.js';
import { executeTurn } from './execute-turn.js';
import { promptAgent } from './prompt-agent.js';
import { promptChat } from './prompt-chat.js';

const echo: ToolDefinition<z.ZodObject<{ text: z.ZodString }>> = {
  name: 'echo',
  description: 'echo',
  parameters: z.object({ text: z.string() }),
  handler: ({ text }) => text,
};

function chatAgent(model: ModelAdapter, message: unknown) {
  return createAgent({
    id: 'seed-chat',
    model,
    handler: async () => (await promptChat({ message: message as never })).data,
  });
}

describe('seed message format in promptChat', () => {
  it('converts a stored seed history (content parts, null content, flat tool calls) before the model sees it', async () => {
    const mock = createMockModel().setDefaultResponse('It is a cat.');
    const history = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look:' },
          { type: 'image', image: { url: 'https://x.test/c.png', detail: 'low' } },
        ],
      },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', name: 'echo', arguments: '{"text":"hi"}' }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'hi' },
      { role: 'assistant', content: 'Seen.' },
      { role: 'user', content: 'And now?' },
    ];
    await expect(chatAgent(mock, history)()).resolves.toBe('It is a cat.');
    const sent = mock.calls.first?.messages ?? [];
    expect(sent[0]).toMatchObject({
      role: 'user',
      content: 'Look:',
      attachments: [{ source: 'url', data: 'https://x.test/c.png', detail: 'low' }],
    });
    expect(sent[1]).toMatchObject({
      role: 'assistant',
      content: '',
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'echo', arguments: '{"text":"hi"}' } }],
    });
  });

  it('refuses a malformed history with InvalidMessageHistoryError naming the path, before any model call', async () => {
    const mock = createMockModel().setDefaultResponse('never');
    const bad = [{ role: 'assistant', content: null, tool_calls: [{ id: 'c1', arguments: '{}' }] }];
    const error = await chatAgent(mock, bad)().catch((caught: unknown) => caught);
    expect(InvalidMessageHistoryError.is(error)).toBe(true);
    expect((error as InvalidMessageHistoryError).path).toBe('promptChat.message[0].tool_calls[0].name');
    expect(mock.calls.count).toBe(0);
  });
});

describe('policy primitives called the seed way', () => {
  it('executeTurn(messages) without options fails with InvalidPromptRuntimeError (missing), not a TypeError', async () => {
    const mock = createMockModel().setDefaultResponse('x');
    const policy = createAgentPolicy({
      policyId: 'bare',
      handler: async () =>
        (executeTurn as (messages: unknown) => Promise<unknown>)([{ role: 'user', content: 'x' }]),
    });
    const Agent = createAgent({ id: 'bare', model: mock, handler: () => policy() });
    const error = await Agent().catch((caught: unknown) => caught);
    expect(InvalidPromptRuntimeError.is(error)).toBe(true);
    expect(error).toMatchObject({ apiName: 'executeTurn', reason: 'missing' });
    const tools = (executeTools as (calls: unknown) => Promise<unknown>)([]);
    await expect(tools).rejects.toMatchObject({ name: 'InvalidPromptRuntimeError', reason: 'missing' });
  });

  it('a fork takes plain tool definitions and seed-format messages', async () => {
    const mock = createMockModel();
    mock.sequence([{ toolCalls: [{ id: 't1', name: 'echo', arguments: { text: 'forked' } }] }]);
    const policy = createAgentPolicy({
      policyId: 'fork-tools',
      handler: async (runtime) => {
        const forked = runtime.fork({
          tools: [echo],
          messages: [{ role: 'user', content: [{ type: 'text', text: 'go' }] } as never],
        });
        const turn = await executeTurn(forked.messages, { runtime: forked });
        return executeTools(turn.message.tool_calls ?? [], { runtime: forked });
      },
    });
    const Agent = createAgent({ id: 'forker', model: mock, handler: () => policy() });
    const results = await Agent();
    expect(results).toEqual([{ role: 'tool', tool_call_id: 't1', name: 'echo', content: 'forked' }]);
    expect(mock.calls.first?.messages).toEqual([{ role: 'user', content: 'go' }]);
    expect(mock.calls.first?.tools?.map((tool) => tool.name)).toEqual(['echo']);
  });
});

describe('tool-call-loop middleware, seed shapes', () => {
  it('sees flat { id, name, arguments } calls, step counting from 1, the system instruction and instruction; may pass flat calls inward', async () => {
    const mock = createMockModel();
    mock.sequence([
      {
        toolCalls: [
          { id: 'a', name: 'echo', arguments: { text: 'one' } },
          { id: 'b', name: 'echo', arguments: { text: 'two' } },
        ],
      },
      { json: { answer: 'ok' } },
    ]);
    const seen: { step: number; names: string[]; system: string | null; instruction: string | null }[] = [];
    const Agent = createAgent({
      id: 'loop-seed',
      model: mock,
      handler: async () => {
        equipSystem('Sys A.');
        equipSystem('Sys B.');
        equipInstruction('Do it.');
        equipTool(echo);
        equipToolCallLoopMiddleware({
          name: 'seed-filter',
          handler: async (context, calls, next) => {
            seen.push({
              step: context.step,
              names: calls.map((call: LoopToolCall) => call.name),
              system: context.systemInstruction,
              instruction: context.instruction,
            });
            // Seed code filters on the flat name and passes flat calls it built itself.
            const kept = calls
              .filter((call) => call.name === 'echo' && call.id === 'a')
              .map((call) => ({ id: call.id, name: call.name, arguments: call.arguments }));
            return [...(await next(kept)), { callId: 'b', content: 'skipped' }];
          },
        });
        return promptAgent(z.object({ answer: z.string() }));
      },
    });
    await expect(Agent()).resolves.toEqual({ answer: 'ok' });
    expect(seen).toEqual([
      { step: 1, names: ['echo', 'echo'], system: 'Sys A.\n\nSys B.', instruction: 'Do it.' },
    ]);
    const tools = (mock.calls.last?.messages ?? []).filter((message) => message.role === 'tool');
    expect(tools.map((message) => message.content)).toEqual(['one', 'skipped']);
  });
});

describe('tools, seed shapes', () => {
  it('gives tool middlewares the definition being called', async () => {
    const mock = createMockModel();
    mock.sequence([
      { toolCalls: [{ id: 'a', name: 'echo', arguments: { text: 'x' } }] },
      { json: { answer: 'ok' } },
    ]);
    let definition: ToolContext['definition'] | undefined;
    const Agent = createAgent({
      id: 'tool-ctx',
      model: mock,
      handler: async () => {
        equipTool(echo, {
          middleware: [
            {
              name: 'spy',
              handler: async (context, next) => {
                definition = context.definition;
                return next();
              },
            },
          ],
        });
        return promptAgent(z.object({ answer: z.string() }));
      },
    });
    await Agent();
    expect(definition?.name).toBe('echo');
    expect(definition?.handler).toBe(echo.handler);
  });

  it("reads the seed's $rejellyContent marker as multimodal tool content", async () => {
    const mock = createMockModel();
    mock.sequence([{ toolCalls: [{ id: 'p', name: 'picture', arguments: {} }] }, { json: { answer: 'ok' } }]);
    const Agent = createAgent({
      id: 'seed-content',
      model: mock,
      handler: async () => {
        equipTool({
          name: 'picture',
          description: 'a picture',
          parameters: z.object({}),
          handler: () => ({
            $rejellyContent: [
              { type: 'text', text: 'here' },
              { type: 'image', image: { url: 'https://x.test/p.png', detail: 'high' } },
            ],
          }),
        });
        return promptAgent(z.object({ answer: z.string() }));
      },
    });
    await Agent();
    const tool = (mock.calls.last?.messages ?? []).find((message) => message.role === 'tool');
    expect(tool).toMatchObject({
      content: 'here',
      attachments: [{ source: 'url', data: 'https://x.test/p.png', detail: 'high' }],
    });
  });

  it('turns malformed multimodal tool output into the tool error the model sees', async () => {
    const mock = createMockModel();
    mock.sequence([{ toolCalls: [{ id: 'p', name: 'broken', arguments: {} }] }, { json: { answer: 'ok' } }]);
    const Agent = createAgent({
      id: 'bad-content',
      model: mock,
      handler: async () => {
        equipTool({
          name: 'broken',
          description: 'bad parts',
          parameters: z.object({}),
          handler: () => ({ $rejellyContent: [{ type: 'image' }] }),
        });
        return promptAgent(z.object({ answer: z.string() }));
      },
    });
    await Agent();
    const tool = (mock.calls.last?.messages ?? []).find((message) => message.role === 'tool');
    expect(tool?.content).toContain('InvalidToolOutputError');
    expect(tool?.content).toContain('content[0].image.url');
  });
});
