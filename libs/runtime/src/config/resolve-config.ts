import type { FlotillaConfig, LogLevel } from './flotilla-config.js';
import { InvalidConfigError } from './invalid-config-error.js';

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Values that win over the environment (e.g. `createWorker` options). */
export type ConfigOverrides = { [K in keyof FlotillaConfig]?: FlotillaConfig[K] | undefined };

/**
 * Resolves the complete {@link FlotillaConfig} once: an override wins, else the environment
 * variable, else the default. Only variables that are used are read, so an override hides a
 * bad variable.
 * @throws InvalidConfigError naming the variable when a value does not parse
 */
export function resolveConfig(
  overrides: ConfigOverrides = {},
  env: Readonly<Record<string, string | undefined>> = process.env,
): FlotillaConfig {
  const read = <K extends keyof FlotillaConfig>(
    key: K,
    variable: string,
    parse: (text: string, variable: string) => FlotillaConfig[K],
    fallback: FlotillaConfig[K],
  ): FlotillaConfig[K] => {
    const override = overrides[key];
    if (override !== undefined) return override as FlotillaConfig[K];
    const text = env[variable];
    return text === undefined || text.trim() === '' ? fallback : parse(text.trim(), variable);
  };
  return {
    redisUrl: read('redisUrl', 'REDIS_URL', parseRedisUrl, 'redis://127.0.0.1:6379'),
    prefix: read('prefix', 'FLOTILLA_PREFIX', parseName, 'flotilla'),
    queueName: read('queueName', 'FLOTILLA_QUEUE', parseName, 'agents'),
    workerConcurrency: read('workerConcurrency', 'FLOTILLA_WORKER_CONCURRENCY', parsePositiveInteger, 4),
    logLevel: read('logLevel', 'LOG_LEVEL', parseLogLevel, 'info'),
    maxPayloadBytes: read('maxPayloadBytes', 'FLOTILLA_MAX_PAYLOAD_BYTES', parsePositiveInteger, 1024 * 1024),
    eventStreamMaxLength: read(
      'eventStreamMaxLength',
      'FLOTILLA_EVENT_STREAM_MAX_LENGTH',
      parsePositiveInteger,
      10_000,
    ),
    runRetentionSeconds: read(
      'runRetentionSeconds',
      'FLOTILLA_RUN_RETENTION_SECONDS',
      parsePositiveInteger,
      604_800,
    ),
    journalRetentionSeconds: read(
      'journalRetentionSeconds',
      'FLOTILLA_JOURNAL_RETENTION_SECONDS',
      parsePositiveInteger,
      86_400,
    ),
    lockDurationMs: read('lockDurationMs', 'FLOTILLA_LOCK_DURATION_MS', parsePositiveInteger, 30_000),
    stalledIntervalMs: read(
      'stalledIntervalMs',
      'FLOTILLA_STALLED_INTERVAL_MS',
      parsePositiveInteger,
      30_000,
    ),
    maxStalledCount: read('maxStalledCount', 'FLOTILLA_MAX_STALLED_COUNT', parseNonNegativeInteger, 3),
    maxChildrenPerRun: read('maxChildrenPerRun', 'FLOTILLA_MAX_CHILDREN_PER_RUN', parsePositiveInteger, 1000),
  };
}

function parseRedisUrl(text: string, variable: string): string {
  try {
    const url = new URL(text);
    if (url.protocol === 'redis:' || url.protocol === 'rediss:') return text;
  } catch {
    // reported below
  }
  throw new InvalidConfigError(variable, text, 'a redis:// or rediss:// URL');
}

function parseName(text: string, variable: string): string {
  if (/^[A-Za-z0-9_.:-]+$/.test(text)) return text;
  throw new InvalidConfigError(
    variable,
    text,
    'letters, digits, `_`, `.`, `:` or `-` only (no spaces or braces)',
  );
}

function parsePositiveInteger(text: string, variable: string): number {
  const value = Number(text);
  if (/^\d+$/.test(text) && Number.isSafeInteger(value) && value > 0) return value;
  throw new InvalidConfigError(variable, text, 'a whole number greater than 0');
}

function parseNonNegativeInteger(text: string, variable: string): number {
  const value = Number(text);
  if (/^\d+$/.test(text) && Number.isSafeInteger(value)) return value;
  throw new InvalidConfigError(variable, text, 'a whole number, 0 or more');
}

function parseLogLevel(text: string, variable: string): LogLevel {
  const level = text.toLowerCase() as LogLevel;
  if (LOG_LEVELS.includes(level)) return level;
  throw new InvalidConfigError(variable, text, `one of ${LOG_LEVELS.join(', ')}`);
}
