/**
 * equipMCP against the real reference servers, started from node_modules over stdio:
 * `@modelcontextprotocol/server-everything` and `@modelcontextprotocol/server-filesystem`.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createAgent, promptAgent, runAgent, type ToolRunContext } from '@flotilla/runtime';
import { createMockModel, type MockModel } from '@flotilla/runtime/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { equipMCP, type MCPKit } from './equip-mcp.js';

const BIN = resolve(import.meta.dirname, '../../../../node_modules/.bin');
const Answer = z.object({ answer: z.string() });
const toolRun: ToolRunContext = {
  idempotencyKey: 'test',
  signal: new AbortController().signal,
  toolCallId: 'call',
  agentId: 'test',
};

async function connect(binary: string, args: string[]): Promise<Client> {
  const transport = new StdioClientTransport({ command: join(BIN, binary), args, stderr: 'ignore' });
  const client = new Client({ name: 'flotilla-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** Runs `handler` as an agent; the model answers with `mock`. */
function run<T>(handler: () => Promise<T>, mock: MockModel = createMockModel()): Promise<T> {
  const Agent = createAgent<undefined, T>({ id: 'reference', model: 'mock', handler });
  return runAgent(Agent, undefined, { models: { mock } }) as Promise<T>;
}

describe('with server-everything', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connect('mcp-server-everything', []);
  });
  afterAll(async () => {
    await client?.close();
  });

  it('turns JSON Schemas into tools the model can call, and returns text results as text', async () => {
    const mock = createMockModel().sequence([
      { toolCalls: [{ id: 'c1', name: 'ev_get-sum', arguments: { a: 2, b: 40 } }] },
      { json: { answer: '42' } },
    ]);
    await run(async () => {
      (
        await equipMCP(client, { clientId: 'everything', namespace: 'ev', tools: ['get-sum', 'echo'] })
      ).inject();
      return promptAgent(Answer);
    }, mock);
    const sum = mock.calls.first?.tools?.find((tool) => tool.name === 'ev_get-sum');
    expect(sum?.parameters).toMatchObject({ properties: { a: { type: 'number' }, b: { type: 'number' } } });
    const message = mock.calls.last?.messages.find((entry) => entry.role === 'tool');
    expect(message?.content).toContain('42');
  });

  it('gives the model the tiny image as an image attachment', async () => {
    const mock = createMockModel().sequence([
      { toolCalls: [{ id: 'c1', name: 'get-tiny-image', arguments: {} }] },
      { json: { answer: 'an MCP logo' } },
    ]);
    await run(async () => {
      (await equipMCP(client, { clientId: 'everything', tools: ['get-tiny-image'] })).inject();
      return promptAgent(Answer);
    }, mock);
    const message = mock.calls.last?.messages.find((entry) => entry.role === 'tool');
    expect(message?.attachments).toHaveLength(1);
    expect(message?.attachments?.[0]).toMatchObject({ mediaType: 'image/png', source: 'base64' });
    expect(message?.attachments?.[0]?.data.length).toBeGreaterThan(100);
  });

  it('labels resource links instead of dropping them', async () => {
    const kit: MCPKit = await run(() =>
      equipMCP(client, { clientId: 'everything', tools: ['get-resource-links'] }),
    );
    const result = await kit.toolMap['get-resource-links']!.handler({ count: 2 }, toolRun);
    expect(result).toMatch(/\[Resource link: demo:\/\/resource\/\S+/);
  });

  it('lists and reads resources through the resource tools', async () => {
    const kit: MCPKit = await run(() =>
      equipMCP(client, { clientId: 'everything', tools: [], namespace: 'ev', enableResources: true }),
    );
    const listed = JSON.parse((await kit.resourceToolMap.ev_list_resources!.handler({}, toolRun)) as string);
    const resources = listed.resources as { uri: string; mimeType?: string }[];
    expect(resources.length).toBeGreaterThan(0);
    for (const resource of resources) expect(resource.uri).toMatch(/^demo:\/\//);
    // A text resource is read back as text the model can use.
    const text = resources.find((resource) => resource.mimeType?.startsWith('text/'));
    expect(text, JSON.stringify(resources)).toBeDefined();
    const contents = await kit.resourceToolMap.ev_read_resource!.handler({ uri: text?.uri ?? '' }, toolRun);
    expect(contents).toBeTypeOf('string');
    expect((contents as string).length).toBeGreaterThan(0);
  });

  it('fetches prompts with arguments through the SDK client', async () => {
    const { names, instruction } = await run(async () => {
      const kit = await equipMCP(client, { clientId: 'everything', tools: [] });
      const prompts = await kit.prompts.list();
      const prompt = await kit.prompts.get('args-prompt', { city: 'Lisbon' });
      return { names: prompts.map((entry) => entry.name), instruction: prompt.asInstruction() };
    });
    expect(names).toEqual(expect.arrayContaining(['simple-prompt', 'args-prompt']));
    expect(instruction).toEqual(expect.stringContaining('Lisbon'));
  });

  it('keeps an embedded text resource of a prompt as text', async () => {
    const instruction = await run(async () => {
      const kit = await equipMCP(client, { clientId: 'everything', tools: [] });
      return (
        await kit.prompts.get('resource-prompt', { resourceType: 'Text', resourceId: '1' })
      ).asInstruction();
    });
    expect(instruction).toEqual(expect.stringContaining('Resource 1: This is a plaintext resource'));
  });

  it('decodes a text blob in a tool result so the model can read it', async () => {
    const kit: MCPKit = await run(() =>
      equipMCP(client, { clientId: 'everything', tools: ['get-resource-reference'] }),
    );
    const result = await kit.toolMap['get-resource-reference']!.handler(
      { resourceType: 'Blob', resourceId: 2 },
      toolRun,
    );
    expect(result).toEqual(expect.stringContaining('Resource 2: This is a base64 blob'));
  });
});

describe('with server-filesystem on a temporary directory', () => {
  let client: Client;
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'flotilla-mcp-fs-'));
    await writeFile(join(directory, 'notes.txt'), 'first line\nsecond line\n');
    client = await connect('mcp-server-filesystem', [directory]);
  });
  afterAll(async () => {
    await client?.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('reads and writes files in the directory on the model’s request', async () => {
    const mock = createMockModel().sequence([
      {
        toolCalls: [
          { id: 'read', name: 'fs_read_text_file', arguments: { path: join(directory, 'notes.txt') } },
          {
            id: 'write',
            name: 'fs_write_file',
            arguments: { path: join(directory, 'out.txt'), content: 'written' },
          },
        ],
      },
      { json: { answer: 'done' } },
    ]);
    await run(async () => {
      const kit = await equipMCP(client, {
        clientId: 'fs',
        namespace: 'fs',
        tools: ['read_text_file', 'write_file', 'list_directory'],
      });
      kit.inject();
      return promptAgent(Answer);
    }, mock);
    const messages = mock.calls.last?.messages ?? [];
    expect(messages.find((message) => message.tool_call_id === 'read')?.content).toContain('second line');
    expect(await readFile(join(directory, 'out.txt'), 'utf8')).toBe('written');
  });

  it('rejects arguments that break the server’s schema before calling it', async () => {
    const kit: MCPKit = await run(() => equipMCP(client, { clientId: 'fs', tools: ['read_text_file'] }));
    const parameters = kit.toolMap.read_text_file!.parameters;
    expect(parameters.safeParse({ path: join(directory, 'notes.txt') }).success).toBe(true);
    expect(parameters.safeParse({ path: 42 }).success).toBe(false);
  });

  it('shows the model the server’s error for a path outside the directory', async () => {
    const kit: MCPKit = await run(() => equipMCP(client, { clientId: 'fs', tools: ['read_text_file'] }));
    await expect(kit.toolMap.read_text_file!.handler({ path: '/etc/hostname' }, toolRun)).rejects.toThrow(
      /MCP tool "read_text_file" reported an error: .*(denied|outside)/i,
    );
  });
});
