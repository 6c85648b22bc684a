/**
 * The real reference servers' tool lists (`server-everything`, `server-filesystem`, over stdio
 * from node_modules) reach each provider target as the servers wrote them, and the model's
 * arguments are accepted and refused as those schemas say.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  AnthropicAdapter,
  type CompileWarning,
  GeminiAdapter,
  type ToolDefinition as IrToolDefinition,
  OpenAIAdapter,
  OpenAIResponsesAdapter,
} from '@flotilla/ir';
import { createAgent, promptAgent, runAgent, type ToolDefinition } from '@flotilla/runtime';
import { createMockModel } from '@flotilla/runtime/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { equipMCP } from './equip-mcp.js';
import { fromMCPTool } from './from-mcp-tool.js';
import type { MCPTool } from './mcp-client-adapter.js';

const BIN = resolve(import.meta.dirname, '../../../../node_modules/.bin');

interface Server {
  client: Client;
  tools: MCPTool[];
}

async function start(binary: string, args: string[]): Promise<Server> {
  const client = new Client({ name: 'flotilla-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: join(BIN, binary), args, stderr: 'ignore' }));
  const { tools } = await client.listTools();
  return { client, tools: tools as MCPTool[] };
}

/** What a provider taking JSON Schema should receive: the server's schema without `$schema`. */
function asWritten(tool: MCPTool): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = tool.inputSchema;
  return schema;
}

/** Every key used anywhere in a schema (property names included). */
function keywordsOf(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) keywordsOf(item, found);
  else if (typeof value === 'object' && value !== null)
    for (const [key, item] of Object.entries(value)) {
      found.add(key);
      keywordsOf(item, found);
    }
  return found;
}

let directory: string;
const servers: Record<'everything' | 'filesystem', Server> = {} as never;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'flotilla-schemas-'));
  servers.everything = await start('mcp-server-everything', []);
  servers.filesystem = await start('mcp-server-filesystem', [directory]);
});

afterAll(async () => {
  await Promise.all(Object.values(servers).map((server) => server.client?.close()));
  await rm(directory, { recursive: true, force: true });
});

describe.each(['everything', 'filesystem'] as const)('the %s server tool list', (name) => {
  const irTools = (): IrToolDefinition[] =>
    servers[name].tools.map((tool) => ({
      name: tool.name,
      description: tool.description ?? '',
      parameters: asWritten(tool),
    }));

  it('reaches the model as written through equipMCP', async () => {
    const mock = createMockModel().sequence([{ json: { answer: 'ok' } }]);
    const Agent = createAgent<undefined, unknown>({
      id: 'lister',
      model: 'mock',
      handler: async () => {
        (await equipMCP(servers[name].client, { clientId: name })).inject();
        return promptAgent(z.object({ answer: z.string() }));
      },
    });
    await runAgent(Agent, undefined, { models: { mock } });
    const sent = Object.fromEntries(
      (mock.calls.first?.tools ?? []).map((tool) => [tool.name, tool.parameters]),
    );
    const written = Object.fromEntries(servers[name].tools.map((tool) => [tool.name, asWritten(tool)]));
    expect(servers[name].tools.length).toBeGreaterThan(5);
    expect(sent).toEqual(written);
  });

  it('is sent unchanged by the OpenAI chat, Responses and Anthropic targets', () => {
    const tools = irTools();
    const messages = [{ role: 'user' as const, content: 'hi' }];
    const chat = new OpenAIAdapter().compile(messages, { tools }).tools ?? [];
    const responses = new OpenAIResponsesAdapter().compile(messages, { tools }).tools ?? [];
    const anthropic = new AnthropicAdapter().compile(messages, { tools }).tools ?? [];
    expect(chat.map((tool) => tool.function.parameters)).toEqual(tools.map((tool) => tool.parameters));
    expect(responses.map((tool) => tool.parameters)).toEqual(tools.map((tool) => tool.parameters));
    expect(anthropic.map((tool) => ('input_schema' in tool ? tool.input_schema : undefined))).toEqual(
      tools.map((tool) => tool.parameters),
    );
  });

  it('reaches Gemini inside its subset, each adaptation reported', () => {
    const warnings: CompileWarning[] = [];
    const payload = new GeminiAdapter().compile([{ role: 'user', content: 'hi' }], {
      tools: irTools(),
      onWarning: (warning) => warnings.push(warning),
    });
    const declarations = payload.tools?.[0]?.functionDeclarations ?? [];
    expect(declarations.map((declaration) => declaration.name)).toEqual(
      servers[name].tools.map((tool) => tool.name),
    );
    const used = keywordsOf(declarations.map((declaration) => declaration.parameters));
    for (const refused of ['$schema', '$ref', '$defs', 'additionalProperties', 'oneOf', 'exclusiveMinimum'])
      expect(used.has(refused)).toBe(false);
    for (const warning of warnings) expect(warning.message).toMatch(/^gemini target: tool "[^"]+": /);
  });
});

describe('arguments checked against the server schemas', () => {
  const tool = (server: 'everything' | 'filesystem', name: string): ToolDefinition => {
    const found = servers[server].tools.find((candidate) => candidate.name === name);
    if (!found) throw new Error(`${server} has no tool ${name}`);
    return fromMCPTool(found, servers[server].client);
  };

  it.each([
    ['filesystem', 'read_text_file', { path: '/tmp/a.txt', head: 3 }, true],
    ['filesystem', 'read_text_file', { path: 42 }, false],
    ['filesystem', 'read_text_file', { head: 3 }, false],
    ['filesystem', 'read_multiple_files', { paths: ['a', 'b'] }, true],
    ['filesystem', 'read_multiple_files', { paths: [] }, false],
    ['filesystem', 'edit_file', { path: 'a', edits: [{ oldText: 'x', newText: 'y' }] }, true],
    ['filesystem', 'edit_file', { path: 'a', edits: [{ oldText: 'x' }] }, false],
    ['everything', 'get-sum', { a: 1, b: 2 }, true],
    ['everything', 'get-sum', { a: '1', b: 2 }, false],
    ['everything', 'get-annotated-message', { messageType: 'debug' }, true],
    ['everything', 'get-annotated-message', { messageType: 'loud' }, false],
  ] as const)('%s %s %j → accepted %s', (server, name, args, accepted) => {
    expect(tool(server, name).parameters.safeParse(args).success).toBe(accepted);
  });
});
