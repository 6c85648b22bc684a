import { type FlotillaConfig, InvalidConfigError, resolveConfig } from '@flotilla/runtime/worker';

/**
 * Everything the worker process runs with, resolved once at start: the runtime configuration
 * (`REDIS_URL`, `FLOTILLA_PREFIX`, `FLOTILLA_WORKER_CONCURRENCY`, `LOG_LEVEL` …, see
 * `FlotillaConfig`) plus the variables of the app itself.
 */
export interface WorkerAppConfig {
  runtime: FlotillaConfig;
  /** `FLOTILLA_AGENTS`: agent modules to load, comma-separated paths or package names. Required. */
  agentModules: string[];
  /** `FLOTILLA_HEALTH_PORT`: port of `/healthz` and `/metrics`; 0 picks a free one. @default 9090 */
  healthPort: number;
  /** `FLOTILLA_HEALTH_HOST`: interface the health endpoint listens on. @default '0.0.0.0' */
  healthHost: string;
  /**
   * `FLOTILLA_SHUTDOWN_TIMEOUT_MS`: on SIGTERM/SIGINT, how long active runs may finish before the
   * process exits anyway (their jobs then stall and another worker replays them). @default 30000
   */
  shutdownTimeoutMs: number;
}

/**
 * Resolves {@link WorkerAppConfig} from `env`.
 * @throws InvalidConfigError naming the variable when one is missing or does not parse
 */
export function resolveWorkerAppConfig(
  env: Readonly<Record<string, string | undefined>> = process.env,
): WorkerAppConfig {
  return {
    runtime: resolveConfig({}, env),
    agentModules: parseAgentModules(env.FLOTILLA_AGENTS),
    healthPort: parsePort(env.FLOTILLA_HEALTH_PORT, 'FLOTILLA_HEALTH_PORT', 9090),
    healthHost: env.FLOTILLA_HEALTH_HOST?.trim() || '0.0.0.0',
    shutdownTimeoutMs: parseMilliseconds(
      env.FLOTILLA_SHUTDOWN_TIMEOUT_MS,
      'FLOTILLA_SHUTDOWN_TIMEOUT_MS',
      30_000,
    ),
  };
}

function parseAgentModules(text: string | undefined): string[] {
  const modules = (text ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (modules.length > 0) return modules;
  throw new InvalidConfigError(
    'FLOTILLA_AGENTS',
    text ?? '',
    'a comma-separated list of agent modules (file paths or package names), each exporting `agents`',
  );
}

/** A TCP port; `fallback` when unset or blank. */
export function parsePort(text: string | undefined, variable: string, fallback: number): number {
  if (text === undefined || text.trim() === '') return fallback;
  const value = Number(text.trim());
  if (/^\d+$/.test(text.trim()) && value <= 65_535) return value;
  throw new InvalidConfigError(variable, text, 'a port number from 0 to 65535');
}

function parseMilliseconds(text: string | undefined, variable: string, fallback: number): number {
  if (text === undefined || text.trim() === '') return fallback;
  const value = Number(text.trim());
  if (/^\d+$/.test(text.trim()) && Number.isSafeInteger(value)) return value;
  throw new InvalidConfigError(variable, text, 'a whole number of milliseconds, 0 or more');
}
