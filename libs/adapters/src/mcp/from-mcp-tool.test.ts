import { createAgent, equipTool, promptAgent, runAgent } from '@flotilla/runtime';
import { createMockModel } from '@flotilla/runtime/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fromMCPTool } from './from-mcp-tool.js';
import type { MCPClientLike, MCPTool } from './mcp-client-adapter.js';

const locate: MCPTool = {
  name: 'locate',
  description: 'Locates an address',
  inputSchema: {
    type: 'object',
    $defs: { A: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
    properties: {
      addr: { $ref: '#/$defs/A' },
      pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] },
      n: { type: 'integer', minimum: 1 },
    },
    required: ['addr'],
  },
};

describe('fromMCPTool', () => {
  it('shows the model the inputSchema as written and calls the server only with arguments it allows', async () => {
    const calls: unknown[] = [];
    const client = {
      listTools: async () => ({ tools: [locate] }),
      callTool: async (request: { name: string; arguments?: unknown }) => {
        calls.push(request.arguments);
        return { content: [{ type: 'text', text: 'found' }] };
      },
    } as unknown as MCPClientLike;
    const mock = createMockModel().sequence([
      { toolCalls: [{ id: 'c1', name: 'locate', arguments: { addr: {}, pair: ['x', 'y'], n: 0 } }] },
      {
        toolCalls: [
          { id: 'c2', name: 'locate', arguments: { addr: { city: 'Oslo' }, pair: ['x', 1], n: 2 } },
        ],
      },
      { json: { answer: 'Oslo' } },
    ]);
    const Agent = createAgent<undefined, unknown>({
      id: 'locator',
      model: 'mock',
      handler: async () => {
        equipTool(fromMCPTool(locate, client));
        return promptAgent(z.object({ answer: z.string() }));
      },
    });
    await runAgent(Agent, undefined, { models: { mock } });

    expect(mock.calls.first?.tools?.[0]?.parameters).toEqual(locate.inputSchema);
    const refusal = mock.calls.all[1]?.messages.find((message) => message.role === 'tool')?.content;
    expect(JSON.parse(String(refusal)).message).toBe(
      'Tool "locate" execution failed: Invalid arguments for tool "locate": addr.city: is required; pair.1: must be number; n: must be >= 1',
    );
    expect(calls).toEqual([{ addr: { city: 'Oslo' }, pair: ['x', 1], n: 2 }]);
  });
});
