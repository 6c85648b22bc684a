/**
 * The runtime configuration, complete: every field has a value once {@link resolveConfig}
 * ran, so code past start-up never meets `undefined`. Each field lists its environment
 * variable and default.
 */
export interface FlotillaConfig {
  /** `REDIS_URL`. @default 'redis://127.0.0.1:6379' */
  redisUrl: string;
  /** `FLOTILLA_PREFIX`: key prefix of every Flotilla key, and BullMQ's prefix. @default 'flotilla' */
  prefix: string;
  /** `FLOTILLA_QUEUE`: the agents queue. @default 'agents' */
  queueName: string;
  /** `FLOTILLA_WORKER_CONCURRENCY`: runs one worker executes at once. @default 4 */
  workerConcurrency: number;
  /** `LOG_LEVEL`: pino level. @default 'info' */
  logLevel: LogLevel;
  /** `FLOTILLA_MAX_PAYLOAD_BYTES`: largest run input (JSON bytes) a worker accepts. @default 1048576 */
  maxPayloadBytes: number;
  /** `FLOTILLA_EVENT_STREAM_MAX_LENGTH`: events kept per run (approximate cap). @default 10000 */
  eventStreamMaxLength: number;
  /** `FLOTILLA_RUN_RETENTION_SECONDS`: how long an ended run's record and events stay. @default 604800 (7 days) */
  runRetentionSeconds: number;
  /** `FLOTILLA_JOURNAL_RETENTION_SECONDS`: how long an ended run's journal stays, for debugging. @default 86400 */
  journalRetentionSeconds: number;
  /** `FLOTILLA_LOCK_DURATION_MS`: BullMQ job lock; a crashed worker's run moves on after about this long. @default 30000 */
  lockDurationMs: number;
  /** `FLOTILLA_STALLED_INTERVAL_MS`: how often workers look for stalled runs. @default 30000 */
  stalledIntervalMs: number;
  /** `FLOTILLA_MAX_STALLED_COUNT`: crashes a run survives before it fails. @default 3 */
  maxStalledCount: number;
  /** `FLOTILLA_MAX_CHILDREN_PER_RUN`: child agent calls one run may make (`FanOutLimitExceededError` past it). @default 1000 */
  maxChildrenPerRun: number;
}

/** pino's levels. */
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
