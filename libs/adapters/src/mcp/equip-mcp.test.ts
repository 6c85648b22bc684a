import {
  createAgent,
  equipInstruction,
  promptAgent,
  reborn,
  runAgent,
  type ToolMiddleware,
} from '@flotilla/runtime';
import { createFleetMemo, type FleetMemo } from '@flotilla/runtime/internals';
import {
  createEmbeddedServices,
  createMockModel,
  executeRun,
  type MockModel,
} from '@flotilla/runtime/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useRedis } from '../../../../test/support/redis.js';
import { type InMemoryMCPServer, startInMemoryMCPServer } from './__fixtures__/in-memory-mcp-server.js';
import { equipMCP, type MCPKit } from './equip-mcp.js';
import { MCPToolsNotFoundError } from './mcp-errors.js';

const redis = useRedis(import.meta.filename);
const servers: InMemoryMCPServer[] = [];
const fleetMemos: FleetMemo[] = [];
const Answer = z.object({ answer: z.string() });

async function server(options: Parameters<typeof startInMemoryMCPServer>[0]): Promise<InMemoryMCPServer> {
  const started = await startInMemoryMCPServer(options);
  servers.push(started);
  return started;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((started) => started.close()));
});
afterAll(async () => {
  await Promise.all(fleetMemos.map((memo) => memo.close()));
});

/** Runs `handler` as an agent whose model answers with `mock`. */
function run<T>(handler: () => Promise<T>, mock: MockModel = createMockModel()): Promise<T> {
  const Agent = createAgent<undefined, T>({ id: 'mcp-user', model: 'mock', handler });
  return runAgent(Agent, undefined, { models: { mock } }) as Promise<T>;
}

/** The text of the tool message that answered `toolCallId` in the model's latest request. */
function toolMessage(mock: MockModel, toolCallId: string) {
  return mock.calls.last?.messages.find(
    (message) => message.role === 'tool' && message.tool_call_id === toolCallId,
  );
}

describe('equipMCP', () => {
  it('lets the model call tools by namespaced name while the server receives native names', async () => {
    const mcp = await server({ tools: ['echo', 'read_file'] });
    const mock = createMockModel().sequence([
      { toolCalls: [{ id: 'c1', name: 'fs_echo', arguments: { text: 'hi' } }] },
      { json: { answer: 'done' } },
    ]);
    const output = await run(async () => {
      const kit = await equipMCP(mcp.client, { clientId: 'fs', namespace: 'fs' });
      kit.inject();
      return promptAgent(Answer);
    }, mock);
    expect(output).toEqual({ answer: 'done' });
    expect(mock.calls.first?.tools?.map((tool) => tool.name)).toEqual(['fs_echo', 'fs_read_file']);
    expect(mcp.calls).toEqual([{ name: 'echo', args: { text: 'hi' } }]);
    expect(toolMessage(mock, 'c1')?.content).toBe('{"tool":"echo","args":{"text":"hi"}}');
  });

  it('keeps only the declared native tools, whatever the namespace', async () => {
    const mcp = await server({ tools: ['a', 'b', 'c'], pageSize: 1 });
    const names = await run(async () => {
      const kit = await equipMCP(mcp.client, { clientId: 'abc', namespace: 'x', tools: ['c', 'a'] });
      return { tools: kit.tools.map((tool) => tool.name), map: Object.keys(kit.toolMap) };
    });
    expect(names).toEqual({ tools: ['x_a', 'x_c'], map: ['x_a', 'x_c'] });
  });

  it('fails before any model call when a declared tool is missing', async () => {
    const mcp = await server({ tools: ['read_file'] });
    const mock = createMockModel().setDefaultResponse({ answer: 'unused' });
    const attempt = run(async () => {
      const kit = await equipMCP(mcp.client, { clientId: 'fs', tools: ['read_file', 'write_file'] });
      kit.inject();
      return promptAgent(Answer);
    }, mock);
    await expect(attempt).rejects.toSatisfy(MCPToolsNotFoundError.is);
    await expect(attempt).rejects.toThrow(/Missing: write_file\. Found: read_file/);
    expect(mock.calls.count).toBe(0);
  });

  it('stops at maxItems when the server has more tools', async () => {
    const tools = Array.from({ length: 12 }, (_, i) => `t${String(i).padStart(2, '0')}`);
    const mcp = await server({ tools, pageSize: 5 });
    const count = await run(
      async () => (await equipMCP(mcp.client, { clientId: 'many', maxItems: 7 })).tools.length,
    );
    expect(count).toBe(7);
  });

  it('shows the model an isError result as the tool error', async () => {
    const mcp = await server({
      tools: ['delete'],
      onCall: () => ({ content: [{ type: 'text', text: 'permission denied' }], isError: true }),
    });
    const mock = createMockModel().sequence([
      { toolCalls: [{ id: 'c1', name: 'delete', arguments: {} }] },
      { json: { answer: 'gave up' } },
    ]);
    await run(async () => {
      (await equipMCP(mcp.client, { clientId: 'err' })).inject();
      return promptAgent(Answer);
    }, mock);
    expect(toolMessage(mock, 'c1')?.content).toContain(
      'MCP tool \\"delete\\" reported an error: permission denied',
    );
  });

  it('gives the model images returned by a tool as attachments', async () => {
    const mcp = await server({
      tools: ['screenshot'],
      onCall: () => ({
        content: [
          { type: 'text', text: 'the screen' },
          { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
        ],
      }),
    });
    const mock = createMockModel().sequence([
      { toolCalls: [{ id: 'c1', name: 'screenshot', arguments: {} }] },
      { json: { answer: 'seen' } },
    ]);
    await run(async () => {
      (await equipMCP(mcp.client, { clientId: 'img' })).inject();
      return promptAgent(Answer);
    }, mock);
    const message = toolMessage(mock, 'c1');
    expect(message?.content).toBe('the screen');
    expect(message?.attachments).toEqual([
      { mediaType: 'image/png', data: 'iVBORw0KGgo=', source: 'base64' },
    ]);
  });

  describe('inject', () => {
    it('equips the resource tools only when asked, and inject middleware replaces the equipMCP one', async () => {
      const mcp = await server({ tools: ['echo'], resourceCount: 2 });
      const seen: string[] = [];
      const tag = (name: string): ToolMiddleware => ({
        name,
        handler: async (context, next) => {
          seen.push(`${name}:${context.toolName}`);
          return next();
        },
      });
      const mock = createMockModel().sequence([
        { toolCalls: [{ id: 'c1', name: 'echo', arguments: {} }] },
        { json: { answer: 'ok' } },
      ]);
      await run(async () => {
        const kit = await equipMCP(mcp.client, {
          clientId: 'mw',
          enableResources: true,
          middleware: [tag('kit')],
        });
        kit.inject({ injectResourceTools: true, middleware: [tag('inject')] });
        return promptAgent(Answer);
      }, mock);
      expect(mock.calls.first?.tools?.map((tool) => tool.name)).toEqual([
        'echo',
        'mcp_list_resources',
        'mcp_read_resource',
      ]);
      expect(seen).toEqual(['inject:echo']);
    });

    it('equips no resource tools by default', async () => {
      const mcp = await server({ tools: ['echo'] });
      const mock = createMockModel().setDefaultResponse({ answer: 'ok' });
      await run(async () => {
        (await equipMCP(mcp.client, { clientId: 'plain', enableResources: true })).inject();
        return promptAgent(Answer);
      }, mock);
      expect(mock.calls.first?.tools?.map((tool) => tool.name)).toEqual(['echo']);
    });
  });

  describe('resource tools', () => {
    it('page through resources with the cursor and read one by uri', async () => {
      const mcp = await server({ tools: [], resourceCount: 5 });
      const results = await run(async () => {
        const kit = await equipMCP(mcp.client, { clientId: 'res', namespace: 'mem', enableResources: true });
        const list = kit.resourceToolMap.mem_list_resources!;
        const read = kit.resourceToolMap.mem_read_resource!;
        const context = {
          idempotencyKey: 'k',
          signal: new AbortController().signal,
          toolCallId: 't',
          agentId: 'a',
        };
        const first = JSON.parse((await list.handler({}, context)) as string);
        const second = JSON.parse((await list.handler({ cursor: first.nextCursor }, context)) as string);
        return { first, second, read: await read.handler({ uri: 'mem://item/4' }, context) };
      });
      expect(results.first.resources.map((resource: { uri: string }) => resource.uri)).toEqual([
        'mem://item/0',
        'mem://item/1',
        'mem://item/2',
      ]);
      expect(results.first.nextCursor).toBe('3');
      expect(results.second).toEqual({
        resources: [
          { uri: 'mem://item/3', name: 'item-3', mimeType: 'text/plain' },
          { uri: 'mem://item/4', name: 'item-4', mimeType: 'text/plain' },
        ],
      });
      expect(results.read).toBe('contents of mem://item/4');
    });
  });

  describe('prompts', () => {
    it('lists prompts and turns one into an instruction the model receives', async () => {
      const mcp = await server({ tools: [] });
      const mock = createMockModel().setDefaultResponse({ answer: 'reviewed' });
      const listed = await run(async () => {
        const kit = await equipMCP(mcp.client, { clientId: 'prompts' });
        const prompts = await kit.prompts.list();
        const review = await kit.prompts.get('review', { file: 'a.ts' });
        equipInstruction(review.asInstruction());
        await promptAgent(Answer);
        return prompts.map((prompt) => prompt.name);
      }, mock);
      expect(listed).toEqual(['review']);
      const instruction = mock.calls.first?.messages.find((message) => message.role === 'user');
      expect(instruction?.content).toBe('Review a.ts');
      expect(instruction?.attachments).toEqual([
        { mediaType: 'image/png', data: 'iVBORw0KGgo=', source: 'base64' },
      ]);
    });
  });

  describe('tools/list cache', () => {
    it('lists once across reborn rounds and again on forceRefresh', async () => {
      const mcp = await server({ tools: ['echo'] });
      const Agent = createAgent<{ round: number }, number>({
        id: 'reborner',
        handler: async ({ round }) => {
          await equipMCP(mcp.client, { clientId: 'cache', forceRefresh: round === 2 });
          if (round < 3) return reborn({ round: round + 1 });
          return mcp.listRequests();
        },
      });
      expect(await runAgent(Agent, { round: 0 })).toBe(2);
    });

    it('keeps kit.tools as the snapshot of its call', async () => {
      const mcp = await server({ tools: ['echo'] });
      const kit: MCPKit = await run(() => equipMCP(mcp.client, { clientId: 'snapshot' }));
      expect(Object.isFrozen(kit.tools)).toBe(true);
      expect(kit.tools.map((tool) => tool.name)).toEqual(['echo']);
    });

    it('lists once for the whole fleet when runs on several workers share a clientId and server', async () => {
      const identity = { name: 'shared-server', version: '3.1.0' };
      const mcpServers = await Promise.all([1, 2, 3, 4].map(() => server({ tools: ['echo'], identity })));
      const Agent = createAgent<{ index: number }, string[]>({
        id: 'fleet-child',
        handler: async ({ index }) =>
          (await equipMCP(mcpServers[index]!.client, { clientId: 'shared' })).tools.map((tool) => tool.name),
      });
      const outputs = await Promise.all(
        mcpServers.map(async (_, index) => {
          const fleetMemo = createFleetMemo({ connection: redis.connect(), prefix: redis.prefix });
          fleetMemos.push(fleetMemo);
          const services = { ...createEmbeddedServices(), fleetMemo };
          return (await executeRun({ agent: Agent, input: { index }, services })).output;
        }),
      );
      expect(outputs).toEqual([['echo'], ['echo'], ['echo'], ['echo']]);
      expect(mcpServers.reduce((total, started) => total + started.listRequests(), 0)).toBe(1);
    });

    it('lists again across the fleet when the server version changes', async () => {
      const fleetMemo = createFleetMemo({ connection: redis.connect(), prefix: redis.prefix });
      fleetMemos.push(fleetMemo);
      const older = await server({ tools: ['echo'], identity: { name: 'versioned', version: '1.0.0' } });
      const newer = await server({
        tools: ['echo', 'sum'],
        identity: { name: 'versioned', version: '1.1.0' },
      });
      const Agent = createAgent<{ index: number }, string[]>({
        id: 'versioned',
        handler: async ({ index }) =>
          (await equipMCP([older, newer][index]!.client, { clientId: 'v' })).tools.map((tool) => tool.name),
      });
      const runOn = async (index: number) =>
        (
          await executeRun({
            agent: Agent,
            input: { index },
            services: { ...createEmbeddedServices(), fleetMemo },
          })
        ).output;
      expect(await runOn(0)).toEqual(['echo']);
      expect(await runOn(1)).toEqual(['echo', 'sum']);
    });
  });
});
