import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { ResourceConfig } from '@flotilla/runtime';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const SERVER_PACKAGE = '@modelcontextprotocol/server-filesystem';
const SERVER_BIN = 'mcp-server-filesystem';

/**
 * The entry script of the `mcp-server-filesystem` binary, resolved from the installed
 * `@modelcontextprotocol/server-filesystem` package (what `node_modules/.bin/mcp-server-filesystem`
 * links to), so the examples never reach for `npx` or the network.
 * @throws Error when the package is not installed or names no such binary
 */
export function filesystemServerEntry(): string {
  const require = createRequire(import.meta.url);
  const manifestPath = require.resolve(`${SERVER_PACKAGE}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin?: Record<string, string> };
  const bin = manifest.bin?.[SERVER_BIN];
  if (!bin) throw new Error(`${SERVER_PACKAGE} declares no "${SERVER_BIN}" binary; reinstall it (npm ci).`);
  return join(dirname(manifestPath), bin);
}

/**
 * Starts the real MCP filesystem server over stdio, allowed to read and write `root` only, and
 * returns a connected SDK `Client`. Close the client to stop the server process. The server's
 * banner on stderr is ignored.
 * @throws whatever the SDK throws when the server does not start or initialize
 */
export async function connectFilesystemServer(root: string): Promise<Client> {
  // Run the entry script with this Node, so neither PATH nor the binary's mode matter.
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [filesystemServerEntry(), root],
    stderr: 'ignore',
  });
  const client = new Client({ name: 'flotilla-examples', version: '0.1.0' });
  await client.connect(transport);
  return client;
}

/**
 * The `equipResource` config both MCP examples use: the filesystem server on `root`
 * ({@link connectFilesystemServer}), rebuilt when `root` changes, closed (the server process
 * stopped) when the agent ends, and exposed so child agents can `expectResource` it.
 */
export function filesystemServerResource(root: string): ResourceConfig<Client> {
  return {
    create: () => connectFilesystemServer(root),
    destroy: async (client) => {
      await client.close();
    },
    deps: [root],
    expose: true,
  };
}
