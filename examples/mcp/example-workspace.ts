import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The roadmap file the reader example reads, relative to the workspace. */
export const ROADMAP_FILE = 'notes/roadmap.md';

/** The text of {@link ROADMAP_FILE}. */
export const ROADMAP_TEXT = [
  '# Flotilla roadmap',
  '',
  '- MCP tools on every worker',
  '- one tools/list for the whole fleet',
  '- resources shared with child agents',
  '',
].join('\n');

/** The configuration the parent/child example's child reads. */
export const EXAMPLE_CONFIG = { project: 'flotilla', queue: 'agents', workers: 4 } as const;

/** A temporary directory the MCP examples point the filesystem server at. */
export interface ExampleWorkspace {
  /** Absolute, symlinks resolved (the server compares real paths). */
  readonly root: string;
  /** Deletes the directory and everything in it. */
  remove(): void;
}

/**
 * Creates a fresh workspace under the OS temp directory holding `config.json`
 * ({@link EXAMPLE_CONFIG}) and `notes/roadmap.md` ({@link ROADMAP_TEXT}).
 */
export function createExampleWorkspace(): ExampleWorkspace {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'flotilla-mcp-example-')));
  writeFileSync(join(root, 'config.json'), `${JSON.stringify(EXAMPLE_CONFIG, null, 2)}\n`);
  mkdirSync(join(root, 'notes'));
  writeFileSync(join(root, ROADMAP_FILE), ROADMAP_TEXT);
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/**
 * Runs `run` on `root` when given; otherwise on a fresh {@link createExampleWorkspace}, removed
 * when `run` settles (so an example's MCP server never outlives its files).
 */
export async function withExampleWorkspace<T>(
  root: string | undefined,
  run: (root: string) => Promise<T>,
): Promise<T> {
  if (root !== undefined) return run(root);
  const workspace = createExampleWorkspace();
  try {
    return await run(workspace.root);
  } finally {
    workspace.remove();
  }
}
