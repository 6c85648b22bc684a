import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../agent/create-agent.js';
import { runAgent } from '../agent/run-agent.js';
import { InvalidToolDefinitionError } from '../errors/agent-errors.js';
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
