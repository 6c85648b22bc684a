#!/usr/bin/env node
// The `flotilla` bin. It is committed, not built, so `npm ci` finds it and links `flotilla` into
// node_modules/.bin on a fresh clone (npm skips a bin whose file does not exist yet); the CLI
// itself is the built dist/cli/flotilla.js.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli/flotilla.js', import.meta.url);
if (existsSync(cli)) {
  await import(cli.href);
} else {
  process.stderr.write('flotilla: the CLI is not built yet; run `npm run build` first.\n');
  process.exitCode = 1;
}
