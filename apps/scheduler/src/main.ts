#!/usr/bin/env node
/**
 * The scheduler process: `node apps/scheduler/dist/main.js`. Every variable is documented in
 * apps/scheduler/README.md. Exits 1 with a message naming the variable when the configuration
 * is invalid; on SIGTERM/SIGINT closes the API and exits 0.
 */
import { startSchedulerApp } from './start-scheduler-app.js';

try {
  const app = await startSchedulerApp(process.env);
  const stop = (signal: NodeJS.Signals) => {
    app.logger.info({ signal }, 'shutting down');
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
} catch (error) {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  process.stderr.write(`flotilla-scheduler could not start. ${text}\n`);
  process.exit(1);
}
