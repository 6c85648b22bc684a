import {
  type ConfigValues,
  configRules,
  configSchema,
  type FlotillaConfig,
  resolveConfig,
  resolveSettings,
  setting,
} from '@flotilla/runtime/worker';

/** The app's own settings: environment variable, rule, default (as the runtime's `flotillaSettings`). */
export const workerAppSettings = {
  /** `FLOTILLA_AGENTS`: agent modules to load, comma-separated paths or package names. Required. */
  agentModules: setting(
    'FLOTILLA_AGENTS',
    configRules.commaList({
      min: 1,
      expected:
        'a comma-separated list of agent modules (file paths or package names), each exporting `agents`',
    }),
    [],
  ),
  /** `FLOTILLA_HEALTH_PORT`: port of `/healthz` and `/metrics`; 0 picks a free one. @default 9090 */
  healthPort: setting('FLOTILLA_HEALTH_PORT', configRules.port, 9090),
  /** `FLOTILLA_HEALTH_HOST`: interface the health endpoint listens on. @default '0.0.0.0' */
  healthHost: setting('FLOTILLA_HEALTH_HOST', configRules.anyText, '0.0.0.0'),
  /**
   * `FLOTILLA_SHUTDOWN_TIMEOUT_MS`: on SIGTERM/SIGINT, how long active runs may finish before the
   * process exits anyway (their jobs then stall and another worker replays them). @default 30000
   */
  shutdownTimeoutMs: setting(
    'FLOTILLA_SHUTDOWN_TIMEOUT_MS',
    configRules.wholeNumber({ expected: 'a whole number of milliseconds, 0 or more' }),
    30_000,
  ),
  /**
   * `FLOTILLA_EVENT_LOOP_BLOCK_MS`: when the event loop is blocked this long (a synchronous
   * infinite loop), the process logs `fatal` and exits (SIGKILL), and other workers take its runs
   * over; `/healthz` answers 503 once the loop was blocked half as long. 0 turns it off. @default 10000
   */
  eventLoopBlockMs: setting(
    'FLOTILLA_EVENT_LOOP_BLOCK_MS',
    configRules.wholeNumber({ expected: 'a whole number of milliseconds, 0 (off) or more' }),
    10_000,
  ),
};

const workerAppSchema = configSchema(workerAppSettings);

/**
 * Everything the worker process runs with, resolved once at start: the runtime configuration
 * (`REDIS_URL`, `FLOTILLA_PREFIX`, `FLOTILLA_WORKER_CONCURRENCY`, `LOG_LEVEL` …, see
 * `FlotillaConfig`) plus the variables of the app itself ({@link workerAppSettings}).
 */
export type WorkerAppConfig = ConfigValues<typeof workerAppSettings> & { runtime: FlotillaConfig };

/**
 * Resolves {@link WorkerAppConfig} from `env`.
 * @throws InvalidConfigError naming the variable when one is missing or does not parse
 */
export function resolveWorkerAppConfig(
  env: Readonly<Record<string, string | undefined>> = process.env,
): WorkerAppConfig {
  return { runtime: resolveConfig({}, env), ...resolveSettings(workerAppSettings, workerAppSchema, {}, env) };
}
