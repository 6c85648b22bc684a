/**
 * The MCP seed's parent/child example (seeds/mcp-adapter.txt, "Parent-Child Agent Example"),
 * runnable: the parent connects the real MCP filesystem server with
 * `equipResource('mcp:filesystem', filesystemServerResource(workspace))` (`expose: true` in it),
 * equips its tools, puts the workspace in scope and calls the child; the child takes the
 * parent's client with `expectResource<MCPClientAdapter>('mcp:filesystem')`, reads
 * `config.json` through it, and answers with `promptAgent(ResultSchema)` (scripted model:
 * {@link createAnalystModel}).
 *
 * Run it: `npm run build && node examples/dist/mcp/parent-child.js` (embedded). On a fleet,
 * load it in the worker app (`FLOTILLA_AGENTS=./examples/dist/mcp/parent-child.js`): the child
 * then gets the parent's very client on the parent's worker, or a broker proxy to it elsewhere.
 *
 * Differences from the seed: the server is the installed binary on a temporary workspace (no
 * `npx`); and the child reads the file with the server's `read_text_file` tool, because
 * server-filesystem serves no MCP resources (`readResource` would fail with "Method not found").
 */
import { join } from 'node:path';
import { equipMCP, type MCPCallToolResponse, type MCPClientAdapter } from '@flotilla/adapters/mcp';
import {
  createAgent,
  equipInstruction,
  equipResource,
  equipScope,
  expectResource,
  expectScope,
  type ModelAdapter,
  promptAgent,
  type RunOutcome,
  runAgentWithOutcome,
} from '@flotilla/runtime';
import type { AnyAgent } from '@flotilla/runtime/worker';
import { z } from 'zod';
import { ANALYST_MODEL_ID, createAnalystModel } from './analyst-model.js';
import { withExampleWorkspace } from './example-workspace.js';
import { filesystemServerResource } from './filesystem-server.js';
import { runIfMain } from './run-if-main.js';

/** What the child (and so the parent) returns. */
export const ResultSchema = z.object({
  project: z.string(),
  settings: z.array(z.string()).describe('the configuration keys, sorted'),
  summary: z.string(),
});

/** The example's result. */
export type AnalysisResult = z.infer<typeof ResultSchema>;

/** The child: reads the workspace's configuration through the parent's MCP client. */
export const ChildAgent = createAgent({
  id: 'mcp-fs-analyst',
  model: ANALYST_MODEL_ID,
  handler: async ({ task }: { task: string }): Promise<AnalysisResult> => {
    const { workspace } = expectScope(z.object({ workspace: z.string() }));
    const fsClient = expectResource<MCPClientAdapter>('mcp:filesystem');
    // The seed calls fsClient.readResource(`file://…/config.json`); server-filesystem has no
    // MCP resources, so the child calls the server's read_text_file tool on the same client.
    const config = await fsClient.callTool({
      name: 'read_text_file',
      arguments: { path: join(workspace, 'config.json') },
    });
    const configData: unknown = JSON.parse(textOf(config));
    equipInstruction(
      `Working directory: ${workspace}\nConfiguration: ${JSON.stringify(configData)}\nTask: ${task}`,
    );
    return await promptAgent(ResultSchema);
  },
});

/** The parent: owns the MCP connection, exposes it, and delegates the analysis to {@link ChildAgent}. */
export const ParentAgent = createAgent({
  id: 'mcp-fs-parent',
  handler: async ({ workspace }: { workspace: string }): Promise<AnalysisResult> => {
    const fsClient = await equipResource('mcp:filesystem', filesystemServerResource(workspace));
    const kit = await equipMCP(fsClient, { clientId: 'fs', namespace: 'filesystem' });
    kit.inject();
    equipScope({ workspace });
    return await ChildAgent({ task: 'analyze' });
  },
});

/** The agents of this example, for a worker. */
export const agents: AnyAgent[] = [ParentAgent, ChildAgent];

/** The model id the child names, mapped to the scripted analyst model. */
export const models: Record<string, ModelAdapter> = { [ANALYST_MODEL_ID]: createAnalystModel() };

/** Options of {@link runParentChildExample}. */
export interface ParentChildExampleOptions {
  /** The model the child runs with; pass your own to inspect its recorded calls. @default createAnalystModel() */
  model?: ModelAdapter;
  /** The workspace holding `config.json`. @default a fresh temporary workspace, removed afterwards */
  workspace?: string;
}

/** Runs {@link ParentAgent} embedded (this process, no Redis); the server stops when the run ends. */
export async function runParentChildExample(options: ParentChildExampleOptions = {}): Promise<RunOutcome> {
  const model = options.model ?? createAnalystModel();
  return withExampleWorkspace(options.workspace, (workspace) =>
    runAgentWithOutcome(ParentAgent, { workspace }, { models: { [ANALYST_MODEL_ID]: model } }),
  );
}

/** Runs the example embedded and prints the structured result. */
export async function main(): Promise<void> {
  const outcome = await runParentChildExample();
  process.stdout.write(`${JSON.stringify(outcome.output, null, 2)}\n`);
}

/**
 * The text of a tool result's text blocks.
 * @throws Error when the tool failed or returned no text
 */
function textOf(response: MCPCallToolResponse): string {
  if (!('content' in response)) return JSON.stringify(response.toolResult);
  const text = response.content.flatMap((block) =>
    block.type === 'text' && typeof block.text === 'string' ? [block.text] : [],
  );
  if (response.isError || text.length === 0) {
    throw new Error(`read_text_file failed: ${text.join('\n') || 'no text returned'}`);
  }
  return text.join('\n');
}

runIfMain(import.meta.url, main);
