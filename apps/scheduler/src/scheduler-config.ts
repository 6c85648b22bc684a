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
  /** `FLOTILLA_API_MAX_BODY_BYTES`: largest request body. @default 2097152 (2 MiB) */
  maxBodyBytes: setting('FLOTILLA_API_MAX_BODY_BYTES', configRules.wholeNumber(), 2 * 1024 * 1024),
};

const schedulerSchema = configSchema(schedulerSettings);

/**
 * What the scheduler process runs with, resolved once at start: the runtime configuration
 * (`REDIS_URL`, `FLOTILLA_PREFIX`, `FLOTILLA_QUEUE`, `LOG_LEVEL` …) plus the API's own
 * variables ({@link schedulerSettings}).
 */
export type SchedulerConfig = ConfigValues<typeof schedulerSettings> & { runtime: FlotillaConfig };

/**
 * Resolves {@link SchedulerConfig} from `env`.
 * @throws InvalidConfigError naming the variable when a value does not parse
 */
export function resolveSchedulerConfig(
  env: Readonly<Record<string, string | undefined>> = process.env,
): SchedulerConfig {
  return { runtime: resolveConfig({}, env), ...resolveSettings(schedulerSettings, schedulerSchema, {}, env) };
}
