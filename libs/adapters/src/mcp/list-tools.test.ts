import { afterEach, describe, expect, it } from 'vitest';
import { type InMemoryMCPServer, startInMemoryMCPServer } from './__fixtures__/in-memory-mcp-server.js';
import { listMCPTools } from './list-tools.js';
import type { MCPClientBase } from './mcp-client-adapter.js';
import { MCPProtocolError, MCPToolsNotFoundError } from './mcp-errors.js';

const names = (count: number) =>
  Array.from({ length: count }, (_, i) => `tool_${String(i).padStart(3, '0')}`);
let server: InMemoryMCPServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('listMCPTools', () => {
  it('follows nextCursor across pages and returns the tools sorted by name', async () => {
    server = await startInMemoryMCPServer({ tools: ['zeta', 'alpha', 'mid', 'beta', 'omega'], pageSize: 2 });
    const tools = await listMCPTools(server.client);
    expect(tools.map((tool) => tool.name)).toEqual(['alpha', 'beta', 'mid', 'omega', 'zeta']);
    expect(server.listRequests()).toBe(3);
    expect(tools[0]!.inputSchema).toEqual({ type: 'object', properties: { text: { type: 'string' } } });
  });

  it('reads only the first page when autoPaginate is false', async () => {
    server = await startInMemoryMCPServer({ tools: names(6), pageSize: 4 });
    const tools = await listMCPTools(server.client, { autoPaginate: false });
    expect(tools).toHaveLength(4);
    expect(server.listRequests()).toBe(1);
  });

  it('stops at maxItems (100 by default) when the server has more tools', async () => {
    server = await startInMemoryMCPServer({ tools: names(130), pageSize: 40 });
    expect(await listMCPTools(server.client)).toHaveLength(100);
    expect(await listMCPTools(server.client, { maxItems: 30 })).toHaveLength(30);
  });

  describe('when tools are declared', () => {
    it('returns exactly the declared tools and stops paging once all are found', async () => {
      server = await startInMemoryMCPServer({ tools: names(50), pageSize: 10 });
      const tools = await listMCPTools(server.client, { tools: ['tool_015', 'tool_003'] });
      expect(tools.map((tool) => tool.name)).toEqual(['tool_003', 'tool_015']);
      expect(server.listRequests()).toBe(2);
    });

    it('fails fast naming what is missing and what was found', async () => {
      server = await startInMemoryMCPServer({ tools: ['read_file', 'write_file'] });
      const attempt = listMCPTools(server.client, { tools: ['read_file', 'delete_file'] });
      await expect(attempt).rejects.toSatisfy(MCPToolsNotFoundError.is);
      await expect(attempt).rejects.toThrow(/Missing: delete_file\. Found: read_file, write_file/);
    });

    it('fails when a declared tool lies beyond maxItems', async () => {
      server = await startInMemoryMCPServer({ tools: names(30), pageSize: 10 });
      const attempt = listMCPTools(server.client, { tools: ['tool_025'], maxItems: 20 });
      await expect(attempt).rejects.toMatchObject({ reason: 'max-items', missing: ['tool_025'] });
      await expect(attempt).rejects.toThrow(/within the first 20 tools/);
    });

    it('makes no request for an explicitly empty list', async () => {
      server = await startInMemoryMCPServer({ tools: ['a'] });
      expect(await listMCPTools(server.client, { tools: [] })).toEqual([]);
      expect(server.listRequests()).toBe(0);
    });
  });

  describe('when the server breaks the protocol', () => {
    it('stops on a repeated cursor instead of looping forever', async () => {
      const looping: MCPClientBase = {
        listTools: async () => ({
          tools: [{ name: 'a', inputSchema: { type: 'object' } }],
          nextCursor: 'again',
        }),
      };
      await expect(listMCPTools(looping)).rejects.toMatchObject({ code: 'cursor_cycle' });
    });

    it('rejects a page that names a tool twice or a tool without a name', async () => {
      const duplicate: MCPClientBase = {
        listTools: async () => ({
          tools: [
            { name: 'a', inputSchema: {} },
            { name: 'a', inputSchema: {} },
          ],
        }),
      };
      await expect(listMCPTools(duplicate)).rejects.toMatchObject({ code: 'duplicate_tool' });
      const nameless = {
        listTools: async () => ({ tools: [{ inputSchema: {} }] }),
      } as unknown as MCPClientBase;
      await expect(listMCPTools(nameless)).rejects.toSatisfy(MCPProtocolError.is);
    });

    it('gives a tool without inputSchema an empty object schema', async () => {
      const bare = { listTools: async () => ({ tools: [{ name: 'ping' }] }) } as unknown as MCPClientBase;
      expect(await listMCPTools(bare)).toEqual([
        { name: 'ping', inputSchema: { type: 'object', properties: {} } },
      ]);
    });
  });
});
