#!/usr/bin/env node
/**
 * The `flotilla` CLI: talks to the scheduler's HTTP API. `flotilla --help` lists the commands;
 * apps/scheduler/README.md documents them.
 */
import { text } from 'node:stream/consumers';
import { runCli } from './run-cli.js';

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: (output) => process.stdout.write(output),
  stderr: (output) => process.stderr.write(output),
  env: process.env,
  readStdin: () => text(process.stdin),
});
