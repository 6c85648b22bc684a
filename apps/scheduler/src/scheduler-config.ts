import {
  type ConfigValues,
  configRules,
  configSchema,
  type FlotillaConfig,
  resolveConfig,
  resolveSettings,
  setting,
} from '@flotilla/runtime/client';

/** The API's own settings: environment variable, rule, default (as the runtime's `flotillaSettings`). */
export const schedulerSettings = {
  /** `FLOTILLA_SCHEDULER_PORT`; 0 picks a free port. @default 8080 */
  port: setting('FLOTILLA_SCHEDULER_PORT', configRules.wholeNumber({ max: 65_535 }), 8080),
  /** `FLOTILLA_SCHEDULER_HOST`: interface to listen on. @default '0.0.0.0' */
  host: setting('FLOTILLA_SCHEDULER_HOST', configRules.anyText, '0.0.0.0'),
  /**
   * `FLOTILLA_API_TOKEN`: bearer token every request must send. @default unset: then only
   * loopback requests (from this machine) are accepted
   */
  apiToken: setting(
    'FLOTILLA_API_TOKEN',
    configRules.secret({ minLength: 16, expected: 'at least 16 characters (e.g. `openssl rand -hex 24`)' }),
    undefined,
    { secret: true },
  ),
  /**
   * `FLOTILLA_API_BODY_TIMEOUT_MS`: a request body must arrive within this many ms, else 408
   * (a slow or stalled sender does not hold a connection). @default 10000
   */
  bodyTimeoutMs: setting('FLOTILLA_API_BODY_TIMEOUT_MS', configRules.wholeNumber({ min: 100 }), 10_000),
  /**
   * `FLOTILLA_API_MAX_STREAMS`: open `/runs/:id/events` streams per principal (token), else 429.
   * @default 100
   */
  maxStreams: setting('FLOTILLA_API_MAX_STREAMS', configRules.wholeNumber({ min: 1 }), 100),
};

const schedulerSchema = configSchema(schedulerSettings);

/**
 * What the scheduler process runs with, resolved once at start: the runtime configuration
 * (`REDIS_URL`, `FLOTILLA_PREFIX`, `FLOTILLA_QUEUE`, `LOG_LEVEL` …) plus the API's own
 * variables ({@link schedulerSettings}).
 */
export type SchedulerConfig = ConfigValues<typeof schedulerSettings> & { runtime: FlotillaConfig };

/**
 * The scheduler's `FLOTILLA_REQUEST_TIMEOUT_MS` when it is not set: shorter than the runtime's
 * 10 s, so during a Redis outage a request fails with 503 in 2 s and its caller retries, instead
 * of holding a connection through the outage.
 */
export const SCHEDULER_REQUEST_TIMEOUT_MS = 2000;

/**
 * Resolves {@link SchedulerConfig} from `env`.
 * @throws InvalidConfigError naming the variable when a value does not parse
 */
export function resolveSchedulerConfig(
  env: Readonly<Record<string, string | undefined>> = process.env,
): SchedulerConfig {
  const requestTimeoutMs =
    env.FLOTILLA_REQUEST_TIMEOUT_MS === undefined ? SCHEDULER_REQUEST_TIMEOUT_MS : undefined;
  return {
    runtime: resolveConfig({ requestTimeoutMs }, env),
    ...resolveSettings(schedulerSettings, schedulerSchema, {}, env),
  };
}
