/**
 * @flotilla/worker — the worker process as a library. `dist/main.js` is the process entry
 * (`startWorkerApp(process.env)` plus signal handling); these pieces are exported for tests
 * and for programs that embed the worker app.
 */
export { AgentModuleError } from './agent-module-error.js';
export { createWorkerLogger } from './create-worker-logger.js';
export {
  type EventLoopWatchdog,
  type EventLoopWatchdogOptions,
  startEventLoopWatchdog,
} from './event-loop-watchdog.js';
export {
  type HealthReport,
  type HealthServer,
  type HealthServerOptions,
  startHealthServer,
} from './health-server.js';
export { type LoadedAgents, loadAgentModules } from './load-agent-modules.js';
export { type RunMetricEvent, RunMetrics } from './run-metrics.js';
export { type ShutdownOptions, shutdownOnSignals } from './shutdown-on-signals.js';
export { startWorkerApp, type WorkerApp } from './start-worker-app.js';
export { resolveWorkerAppConfig, type WorkerAppConfig } from './worker-app-config.js';
