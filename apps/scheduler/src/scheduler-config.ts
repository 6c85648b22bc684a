import { type FlotillaConfig, InvalidConfigError, resolveConfig } from '@flotilla/runtime/client';

/**
 * What the scheduler process runs with, resolved once at start: the runtime configuration
 * (`REDIS_URL`, `FLOTILLA_PREFIX`, `FLOTILLA_QUEUE`, `LOG_LEVEL` …) plus the API's own variables.
 */
export interface SchedulerConfig {
  runtime: FlotillaConfig;
  /** `FLOTILLA_SCHEDULER_PORT`; 0 picks a free port. @default 8080 */
  port: number;
  /** `FLOTILLA_SCHEDULER_HOST`: interface to listen on. @default '0.0.0.0' */
  host: string;
  /**
   * `FLOTILLA_API_TOKEN`: bearer token every request must send. @default unset: then only
   * loopback requests (from this machine) are accepted
   */
  apiToken: string | undefined;
  /** `FLOTILLA_API_MAX_BODY_BYTES`: largest request body. @default 2097152 (2 MiB) */
  maxBodyBytes: number;
}

/**
 * Resolves {@link SchedulerConfig} from `env`.
 * @throws InvalidConfigError naming the variable when a value does not parse
 */
export function resolveSchedulerConfig(
  env: Readonly<Record<string, string | undefined>> = process.env,
): SchedulerConfig {
  const token = env.FLOTILLA_API_TOKEN?.trim();
  if (token !== undefined && token !== '' && token.length < 16)
    throw new InvalidConfigError(
      'FLOTILLA_API_TOKEN',
      '(hidden)',
      'at least 16 characters (e.g. `openssl rand -hex 24`)',
    );
  return {
    runtime: resolveConfig({}, env),
    port: parseWholeNumber(env.FLOTILLA_SCHEDULER_PORT, 'FLOTILLA_SCHEDULER_PORT', 8080, 65_535),
    host: env.FLOTILLA_SCHEDULER_HOST?.trim() || '0.0.0.0',
    apiToken: token || undefined,
    maxBodyBytes: parseWholeNumber(
      env.FLOTILLA_API_MAX_BODY_BYTES,
      'FLOTILLA_API_MAX_BODY_BYTES',
      2 * 1024 * 1024,
    ),
  };
}

function parseWholeNumber(
  text: string | undefined,
  variable: string,
  fallback: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (text === undefined || text.trim() === '') return fallback;
  const value = Number(text.trim());
  if (/^\d+$/.test(text.trim()) && value <= max) return value;
  throw new InvalidConfigError(variable, text, `a whole number from 0 to ${max}`);
}
