import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../agent/create-agent.js';
import { runAgent } from '../agent/run-agent.js';
import { InvalidToolDefinitionError } from '../errors/agent-errors.js';
import { promptChat } from '../policy/prompt-chat.js';
import { createMockModel } from '../testing/index.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import { equipTool } from './equip-tool.js';

/** Equips `tool` (typed loosely, as untyped code would pass it) in a run and returns what it threw. */
async function equipError(tool: Record<string, unknown>): Promise<unknown> {
  const Agent = createAgent({
    id: 'equipper',
    handler: async () => {
      equipTool(tool as unknown as ToolDefinition);
      return 'equipped';
    },
  });
  return runAgent(Agent, undefined).catch((error: unknown) => error);
}

describe('equipTool with an incomplete tool', () => {
  it('names the tool and `parameters` when it got a JSON Schema `inputSchema` instead of zod', async () => {
    const error = await equipError({
      name: 'search',
      description: 'searches',
      inputSchema: { type: 'object', properties: { query: { type: 'string' } } },
      handler: async () => 'found',
    });
    expect(InvalidToolDefinitionError.is(error)).toBe(true);
    expect(error).toMatchObject({ toolName: 'search', field: 'parameters' });
    expect((error as Error).message).toMatch(/^equipTool: tool "search" needs `parameters`, a zod schema/);
  });

  it('names the tool and `handler` when it has no handler', async () => {
    const error = await equipError({ name: 'search', description: 'searches', parameters: z.object({}) });
    expect(error).toMatchObject({ name: 'InvalidToolDefinitionError', toolName: 'search', field: 'handler' });
    expect((error as Error).message).toContain('equipTool: tool "search" needs `handler`');
  });

  it('equips a complete tool', async () => {
    const Agent = createAgent({
      id: 'equipper',
      handler: async () => {
        equipTool({ name: 'ok', description: 'fine', parameters: z.object({}), handler: async () => 'ok' });
        return 'equipped';
      },
    });
    expect(await runAgent(Agent, undefined)).toBe('equipped');
  });
});

describe('equipTool with timeoutMs', () => {
  it('names `timeoutMs` when it is not a whole number of milliseconds', async () => {
    const error = await equipError({
      name: 'search',
      description: 'searches',
      parameters: z.object({}),
      handler: async () => 'found',
      timeoutMs: 0,
    });
    expect(error).toMatchObject({
      name: 'InvalidToolDefinitionError',
      toolName: 'search',
      field: 'timeoutMs',
    });
  });

  it('fails a call past it with ToolTimeoutError, which the model reads, and aborts the tool signal', async () => {
    let toolSignal: AbortSignal | undefined;
    const model = createMockModel({ id: 'm' });
    model
      .when((request) => request.messages.some((message) => message.role === 'tool'))
      .thenDo((request) => String(request.messages.find((message) => message.role === 'tool')?.content));
    model.when(() => true).thenCallTools([{ name: 'stuck', arguments: {} }]);
    const Agent = createAgent({
      id: 'timer',
      model,
      handler: async () => {
        equipTool(
          {
            name: 'stuck',
            description: 'never returns',
            parameters: z.object({}),
            handler: async (_args, { signal }) => {
              toolSignal = signal;
              return new Promise(() => {});
            },
          },
          { timeoutMs: 20 },
        );
        return (await promptChat({ message: 'go' })).data;
      },
    });
    const answer = JSON.parse(String(await runAgent(Agent, undefined)));
    expect(answer).toEqual({
      error: true,
      message: expect.stringContaining(
        'Tool "stuck" execution failed: ToolTimeoutError: Tool "stuck" did not finish within 20 ms',
      ),
    });
    expect(toolSignal?.aborted).toBe(true);
  });
});
