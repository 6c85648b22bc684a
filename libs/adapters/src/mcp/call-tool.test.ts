import { afterEach, describe, expect, it } from 'vitest';
import { type InMemoryMCPServer, startInMemoryMCPServer } from './__fixtures__/in-memory-mcp-server.js';
import { callMCPTool } from './call-tool.js';
import type { MCPCallToolResponse, MCPPositionalClient } from './mcp-client-adapter.js';
import { MCPProtocolError } from './mcp-errors.js';

let server: InMemoryMCPServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A facade with the positional `callTool(name, args)` form that forwards to the SDK client. */
function positionalFacade(target: InMemoryMCPServer): MCPPositionalClient {
  return {
    listTools: (params) => target.client.listTools(params),
    callTool: (name: string, args: Record<string, unknown>): Promise<MCPCallToolResponse> =>
      target.client.callTool({ name, arguments: args }),
  };
}

describe('callMCPTool', () => {
  it('calls the official SDK client with { name, arguments } once', async () => {
    server = await startInMemoryMCPServer({ tools: ['echo'] });
    const result = await callMCPTool(server.client, 'echo', { text: 'hi' });
    expect(result.content).toEqual([{ type: 'text', text: '{"tool":"echo","args":{"text":"hi"}}' }]);
    expect(server.calls).toEqual([{ name: 'echo', args: { text: 'hi' } }]);
  });

  it('calls a positional (name, args) client once with the native name', async () => {
    server = await startInMemoryMCPServer({ tools: ['echo'] });
    await callMCPTool(positionalFacade(server), 'echo', { text: 'hi' });
    expect(server.calls).toEqual([{ name: 'echo', args: { text: 'hi' } }]);
  });

  it('does not call the tool a second time when the first call fails', async () => {
    server = await startInMemoryMCPServer({ tools: ['echo'] });
    const facade = positionalFacade(server);
    const failing: MCPPositionalClient = {
      ...facade,
      callTool: async (name: string, args: Record<string, unknown>) => {
        await facade.callTool(name, args);
        throw new Error('connection reset');
      },
    };
    await expect(callMCPTool(failing, 'echo', {})).rejects.toThrow('connection reset');
    expect(server.calls).toHaveLength(1);
  });

  it('turns the legacy { toolResult } answer into text and rejects other shapes', async () => {
    const legacy = {
      listTools: async () => ({ tools: [] }),
      callTool: async () => ({ toolResult: { sum: 3 } }),
    };
    expect(await callMCPTool(legacy, 'add', {})).toEqual({ content: [{ type: 'text', text: '{"sum":3}' }] });
    const broken = { listTools: async () => ({ tools: [] }), callTool: async () => ({ ok: true }) };
    await expect(callMCPTool(broken as never, 'add', {})).rejects.toSatisfy(MCPProtocolError.is);
  });
});
