#!/usr/bin/env node
/**
 * The worker process: `FLOTILLA_AGENTS=./examples/dist/research-fleet.js node apps/worker/dist/main.js`.
 * Every variable is documented in apps/worker/README.md. Exits 1 with a message naming the
 * variable when the configuration is invalid.
 */
import { shutdownOnSignals } from './shutdown-on-signals.js';
import { startWorkerApp } from './start-worker-app.js';

try {
  const app = await startWorkerApp(process.env);
  shutdownOnSignals({
    shutdown: () => app.close(),
    timeoutMs: app.config.shutdownTimeoutMs,
    logger: app.logger,
  });
} catch (error) {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  process.stderr.write(`flotilla-worker could not start. ${text}\n`);
  process.exit(1);
}
