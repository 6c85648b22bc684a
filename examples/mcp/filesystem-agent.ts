/**
 * The MCP seed's first example (seeds/mcp-adapter.txt), runnable: an agent connects the real
 * MCP filesystem server with `equipResource('mcp:fs', …)`, brings its tools in with
 * `equipMCP(client, { clientId, namespace: 'fs', enableResources: true })` and
 * `kit.inject({ injectResourceTools: true })`, and answers with `promptAgent(ResultSchema)`.
 * The model is scripted ({@link createReaderModel}): it calls `fs_read_text_file`, then answers
 * from what the server returned.
 *
 * Run it: `npm run build && node examples/dist/mcp/filesystem-agent.js`.
 *
 * Difference from the seed: the seed starts the server with `npx -y …` on `/data`; this starts
 * the installed binary on a temporary workspace the example creates (no network).
 */
import { join } from 'node:path';
import { equipMCP } from '@flotilla/adapters/mcp';
import {
  type AnyAgent,
  createAgent,
  equipInstruction,
  equipResource,
  type ModelAdapter,
  promptAgent,
  type RunOutcome,
  runAgentWithOutcome,
} from '@flotilla/runtime';
import { z } from 'zod';
import { ROADMAP_FILE, withExampleWorkspace } from './example-workspace.js';
import { filesystemServerResource } from './filesystem-server.js';
import { createReaderModel, READER_MODEL_ID } from './reader-model.js';
import { runIfMain } from './run-if-main.js';

/** What {@link FilesystemReaderAgent} returns: the file it read, its title and its list items. */
export const ResultSchema = z.object({
  path: z.string(),
  title: z.string().min(1),
  items: z.array(z.string()),
});

/** The reader agent's result. */
export type ReaderResult = z.infer<typeof ResultSchema>;

/** Input of {@link FilesystemReaderAgent}: the directory the server may read, and a file in it. */
export interface ReaderInput {
  root: string;
  file: string;
}

/** Reads one file through the MCP filesystem server and reports its title and items. */
export const FilesystemReaderAgent = createAgent({
  id: 'mcp-fs-reader',
  model: READER_MODEL_ID,
  handler: async ({ root, file }: ReaderInput): Promise<ReaderResult> => {
    const client = await equipResource('mcp:fs', filesystemServerResource(root));
    const kit = await equipMCP(client, { clientId: 'fs-main', namespace: 'fs', enableResources: true });
    // The resource tools are registered too, as in the seed; server-filesystem has no MCP
    // resources, so a model that listed them would get an empty list.
    kit.inject({ injectResourceTools: true });
    equipInstruction(`Read the file ${join(root, file)} and report its title and list items.`);
    return promptAgent(ResultSchema);
  },
});

/** The agents of this example (for a worker: `FLOTILLA_AGENTS=./examples/dist/mcp/filesystem-agent.js`). */
export const agents: AnyAgent[] = [FilesystemReaderAgent];

/** The model id the agent names, mapped to the scripted reader model. */
export const models: Record<string, ModelAdapter> = { [READER_MODEL_ID]: createReaderModel() };

/** Options of {@link runReaderExample}. */
export interface ReaderExampleOptions {
  /** The model to run with; pass your own to inspect its recorded calls. @default createReaderModel() */
  model?: ModelAdapter;
  /** Where the server runs. @default a fresh temporary workspace, removed afterwards */
  root?: string;
}

/**
 * Runs {@link FilesystemReaderAgent} embedded (this process, no Redis) on the workspace's
 * `notes/roadmap.md`. The MCP server process is stopped when the run ends.
 */
export async function runReaderExample(options: ReaderExampleOptions = {}): Promise<RunOutcome> {
  const model = options.model ?? createReaderModel();
  return withExampleWorkspace(options.root, (root) =>
    runAgentWithOutcome(
      FilesystemReaderAgent,
      { root, file: ROADMAP_FILE },
      { models: { [READER_MODEL_ID]: model } },
    ),
  );
}

/** Runs the example embedded and prints the structured result. */
export async function main(): Promise<void> {
  const outcome = await runReaderExample();
  process.stdout.write(`${JSON.stringify(outcome.output, null, 2)}\n`);
  process.stdout.write(`model calls: ${outcome.modelCalls}\n`);
}

runIfMain(import.meta.url, main);
