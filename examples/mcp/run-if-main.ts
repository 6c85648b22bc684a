import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Runs `main` when the module at `moduleUrl` is the script Node was started with
 * (`node examples/dist/mcp/filesystem-agent.js`), and not when it is imported (tests, the worker
 * app). A failure is printed and sets exit code 1.
 */
export function runIfMain(moduleUrl: string, main: () => Promise<unknown>): void {
  const script = process.argv[1];
  if (script === undefined || realpathSync(script) !== realpathSync(fileURLToPath(moduleUrl))) return;
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  });
}
