/**
 * The MCP seed's two examples as shipped in `examples/mcp/`, run against the real
 * server-filesystem on a workspace this file writes (so every value the model sees can only
 * have come from the files): embedded, and the parent/child example through a real worker and
 * client on Redis. The scripted models record every request, so the tests read what reached
 * the model.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAnalystModel } from '@flotilla/examples/mcp/analyst-model';
import { runReaderExample } from '@flotilla/examples/mcp/filesystem-agent';
import { ChildAgent, ParentAgent, runParentChildExample } from '@flotilla/examples/mcp/parent-child';
import { createReaderModel } from '@flotilla/examples/mcp/reader-model';
import { createClient, type RunEvent } from '@flotilla/runtime/client';
import type { MockCall } from '@flotilla/runtime/testing';
import { createWorker } from '@flotilla/runtime/worker';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useRedis } from '../support/redis.js';

const ROADMAP = '# Seed test plan\n\n- read through MCP\n- answer with a schema\n';
const CONFIG = { project: 'seed-test', region: 'eu-north', retries: 3 };

const redis = useRedis(import.meta.filename);
let workspace: string;

beforeAll(() => {
  workspace = realpathSync(mkdtempSync(join(tmpdir(), 'flotilla-seed-examples-')));
  mkdirSync(join(workspace, 'notes'));
  writeFileSync(join(workspace, 'notes/roadmap.md'), ROADMAP);
  writeFileSync(join(workspace, 'config.json'), JSON.stringify(CONFIG, null, 2));
});

afterAll(() => rmSync(workspace, { recursive: true, force: true }));

function toolMessages(call: MockCall | undefined): string[] {
  return (call?.messages ?? []).flatMap((message) => (message.role === 'tool' ? [message.content] : []));
}

function lastUserText(call: MockCall | undefined): string {
  return call?.messages.findLast((message) => message.role === 'user')?.content ?? '';
}

const expectedAnalysis = {
  project: 'seed-test',
  settings: ['project', 'region', 'retries'],
  summary: expect.stringContaining('seed-test'),
};

describe('the seed’s first example (equipResource + equipMCP + promptAgent)', () => {
  it('lets the model call fs_read_text_file and answers from the real file', async () => {
    const model = createReaderModel();

    const outcome = await runReaderExample({ model, root: workspace });

    expect(outcome.output).toEqual({
      path: join(workspace, 'notes/roadmap.md'),
      title: 'Seed test plan',
      items: ['read through MCP', 'answer with a schema'],
    });
    const [first, second] = model.calls.all;
    expect(model.calls.count).toBe(2);
    // The server's tools under the `fs` namespace, plus the injected resource tools.
    expect(first?.tools?.map((tool) => tool.name)).toEqual(
      expect.arrayContaining([
        'fs_read_text_file',
        'fs_list_directory',
        'fs_list_resources',
        'fs_read_resource',
      ]),
    );
    expect(toolMessages(second)).toEqual([readFileSync(join(workspace, 'notes/roadmap.md'), 'utf8')]);
    expect(second?.schema).toBeDefined();
  });
});

describe('the seed’s parent/child example (expectResource in the child)', () => {
  it('runs embedded: the child reads config.json through the parent’s client and the model sees it', async () => {
    const model = createAnalystModel();

    const outcome = await runParentChildExample({ model, workspace });

    expect(outcome.output).toEqual(expectedAnalysis);
    expect(model.calls.count).toBe(1);
    expect(lastUserText(model.calls.first)).toBe(
      `Working directory: ${workspace}\nConfiguration: ${JSON.stringify(CONFIG)}\nTask: analyze`,
    );
    // The child equips no tools of its own: the parent's MCP tools stay with the parent.
    expect(model.calls.first?.tools ?? []).toEqual([]);
  });

  it('runs through a real worker: the child is its own run and still reads through the parent’s client', async () => {
    const model = createAnalystModel();
    const worker = createWorker({
      agents: [ParentAgent, ChildAgent],
      models: { [model.id]: model },
      connection: redis.url,
      prefix: redis.prefix,
      concurrency: 2,
      logger: pino({ level: 'silent' }),
    });
    const client = createClient({ connection: redis.url, prefix: redis.prefix });
    try {
      await worker.waitUntilReady();
      const run = await client.submit('mcp-fs-parent', { workspace });

      expect(await run.result()).toEqual(expectedAnalysis);

      const events: RunEvent[] = [];
      for await (const event of client.run(run.id).events()) {
        events.push(event);
        if (event.type === 'run-end') break;
      }
      const childRunId = events.find((event) => event.type === 'child-start')?.childRunId;
      expect(childRunId).toEqual(expect.any(String));
      expect(await client.getRun(childRunId as string)).toMatchObject({ status: 'succeeded' });
      expect(lastUserText(model.calls.first)).toContain(`Configuration: ${JSON.stringify(CONFIG)}`);
    } finally {
      await client.close();
      await worker.close();
    }
  });
});
