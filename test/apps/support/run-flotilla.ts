/** Runs the built `flotilla` CLI as its own process against a test scheduler. */
import { spawn } from 'node:child_process';
import { API_TOKEN } from './use-scheduler.js';
import { REPO_ROOT } from './worker-process.js';

/** What a `flotilla` process did. */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `flotilla ...args` with `url` as the API and (unless `token` is null) the token in its
 * environment; `stdin` is its whole standard input.
 */
export function runFlotilla(
  url: string,
  args: string[],
  options: { token?: string | null; stdin?: string } = {},
): Promise<CliResult> {
  const env: Record<string, string | undefined> = { ...process.env, FLOTILLA_API_URL: url };
  env.FLOTILLA_API_TOKEN = options.token === null ? undefined : (options.token ?? API_TOKEN);
  const child = spawn(process.execPath, ['apps/scheduler/dist/cli/flotilla.js', ...args], {
    cwd: REPO_ROOT,
    env,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdin.end(options.stdin ?? '');
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}
