/**
 * The runtime configuration as one table: each field with its environment variable, its rule
 * and its default. Options passed in code and environment variables are checked by the same
 * schema ({@link flotillaConfigSchema}); the rules of a field change in its one line here.
 */
import type { z } from 'zod';
import {
  DEFAULT_MAX_JSON_DEPTH,
  DEFAULT_MAX_PAYLOAD_BYTES,
  type JsonLimits,
  MAX_JSON_DEPTH_CEILING,
} from '../json/json-bounds.js';
import { DEFAULT_CHUNK_BYTES, MAX_CONVERSATION_CHUNK_BYTES } from '../store/append-conversation-args.js';
import { buildLabel, buildList, filePath, keyName, oneOf, redisUrl, wholeNumber } from './config-rules.js';
import { configSchema, setting } from './config-setting.js';

/** pino's levels. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** pino's levels. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** How a worker's runs keep to builds (`FLOTILLA_VERSIONING`). */
export const VERSIONING_MODES = ['unpinned', 'pinned'] as const;

/** How a worker's runs keep to builds: see `flotillaSettings.versioning`. */
export type VersioningMode = (typeof VERSIONING_MODES)[number];

/** Every runtime setting: environment variable, rule, default. */
export const flotillaSettings = {
  /**
   * `REDIS_URL`: `redis://[user:password@]host:port[/db]`, or `rediss://…` for TLS. Put the
   * password here (the compose file requires one). @default 'redis://127.0.0.1:6379'
   */
  redisUrl: setting('REDIS_URL', redisUrl, 'redis://127.0.0.1:6379'),
  /**
   * `FLOTILLA_REDIS_TLS_CA_FILE`: a PEM file of the CA(s) that signed the Redis server's
   * certificate, trusted for `rediss://` URLs besides Node's CAs (a private or self-signed CA).
   * Ignored for `redis://`. @default unset: Node's CAs only
   */
  redisTlsCaFile: setting('FLOTILLA_REDIS_TLS_CA_FILE', filePath, undefined),
  /** `FLOTILLA_PREFIX`: key prefix of every Flotilla key; BullMQ's is `<prefix>:{q}` (one hash tag). @default 'flotilla' */
  prefix: setting('FLOTILLA_PREFIX', keyName, 'flotilla'),
  /**
   * `FLOTILLA_QUEUE`: the first part of every agent queue's name (`<queue>/<agentId>`, one
   * BullMQ queue per agent). @default 'agents'
   */
  queueName: setting('FLOTILLA_QUEUE', keyName, 'agents'),
  /** `FLOTILLA_WORKER_CONCURRENCY`: runs one worker executes at once. @default 4 */
  workerConcurrency: setting('FLOTILLA_WORKER_CONCURRENCY', wholeNumber({ min: 1 }), 4),
  /**
   * `FLOTILLA_BUILD_ID`: the build of the code a worker runs (a version, a commit), shown in the
   * worker registry (`listWorkers`, `GET /workers`). @default unset
   */
  buildId: setting('FLOTILLA_BUILD_ID', buildLabel, undefined),
  /**
   * `FLOTILLA_VERSIONING`: `pinned` makes every root run a worker takes first keep to that
   * worker's build (`FLOTILLA_BUILD_ID`, required then) for its whole life, its child runs
   * included: it resumes only on workers of that build or of one that lists it in
   * `FLOTILLA_COMPATIBLE_WITH`. `unpinned`: any worker serving the agent resumes any run.
   * @default 'unpinned'
   */
  versioning: setting('FLOTILLA_VERSIONING', oneOf(VERSIONING_MODES), 'unpinned'),
  /**
   * `FLOTILLA_COMPATIBLE_WITH`: comma-separated builds whose pinned runs this worker may resume
   * too (its code replays their journals: changes guarded with `patched()`). @default none
   */
  compatibleWith: setting('FLOTILLA_COMPATIBLE_WITH', buildList, []),
  /** `LOG_LEVEL`: pino level (any case in the variable). @default 'info' */
  logLevel: setting('LOG_LEVEL', oneOf(LOG_LEVELS), 'info'),
  /**
   * `FLOTILLA_MAX_PAYLOAD_BYTES`: largest value (UTF-8 bytes of JSON) the runtime accepts: run
   * input, scope, tool arguments and output, a model answer, an event. @default 1048576
   */
  maxPayloadBytes: setting('FLOTILLA_MAX_PAYLOAD_BYTES', wholeNumber({ min: 1 }), DEFAULT_MAX_PAYLOAD_BYTES),
  /**
   * `FLOTILLA_MAX_JSON_DEPTH`: deepest nesting of arrays/objects in those values (at most 1000:
   * JSON.stringify overflows the stack near 4,500). @default 128
   */
  maxJsonDepth: setting(
    'FLOTILLA_MAX_JSON_DEPTH',
    wholeNumber({ min: 1, max: MAX_JSON_DEPTH_CEILING }),
    DEFAULT_MAX_JSON_DEPTH,
  ),
  /** `FLOTILLA_EVENT_STREAM_MAX_LENGTH`: events kept per run (approximate cap). @default 10000 */
  eventStreamMaxLength: setting('FLOTILLA_EVENT_STREAM_MAX_LENGTH', wholeNumber({ min: 1 }), 10_000),
  /** `FLOTILLA_RUN_RETENTION_SECONDS`: how long an ended run's record and compacted timeline stay. @default 604800 (7 days) */
  runRetentionSeconds: setting('FLOTILLA_RUN_RETENTION_SECONDS', wholeNumber({ min: 1 }), 604_800),
  /** `FLOTILLA_JOURNAL_RETENTION_SECONDS`: how long an ended run's journal stays (to replay or export the run). @default 604800 (7 days, like the record) */
  journalRetentionSeconds: setting('FLOTILLA_JOURNAL_RETENTION_SECONDS', wholeNumber({ min: 1 }), 604_800),
  /** `FLOTILLA_CONVERSATION_RETENTION_SECONDS`: how long a conversation stays after its last turn; 0 keeps it forever. @default 0 */
  conversationRetentionSeconds: setting('FLOTILLA_CONVERSATION_RETENTION_SECONDS', wholeNumber(), 0),
  /**
   * `FLOTILLA_CONVERSATION_CHUNK_BYTES`: conversation messages are stored in list entries of up
   * to this many bytes (a load is then a few large replies). 0 stores one message per entry, as
   * versions before `append-conversation-7` did and can read: set it on every process of a
   * rolling deploy while processes of such a version still load conversations. @default 16384
   */
  conversationChunkBytes: setting(
    'FLOTILLA_CONVERSATION_CHUNK_BYTES',
    wholeNumber({ max: MAX_CONVERSATION_CHUNK_BYTES }),
    DEFAULT_CHUNK_BYTES,
  ),
  /**
   * `FLOTILLA_CONVERSATION_RECHECK_MS`: how often a run parked behind another run on its
   * conversation looks again by itself. It is woken as soon as the run ahead ends; this bounds
   * the delay when that wake-up was lost (a crash between the end and the wake-up). @default 10000
   */
  conversationRecheckMs: setting('FLOTILLA_CONVERSATION_RECHECK_MS', wholeNumber({ min: 1 }), 10_000),
  /**
   * `FLOTILLA_LOCK_DURATION_MS`: BullMQ job lock, renewed every half of it while the run executes;
   * a crashed worker's runs move on within about this plus `stalledIntervalMs`. Short is safe:
   * an attempt whose lock lapsed stops, and its writes are refused (fenced attempts). @default 5000
   */
  lockDurationMs: setting('FLOTILLA_LOCK_DURATION_MS', wholeNumber({ min: 1 }), 5000),
  /**
   * `FLOTILLA_SLOT_HOLD_MS`: how long a job that a worker's idle agent queue fetched while every
   * slot was in use waits on that worker for the next slot a run's end frees, before it is handed
   * back to its queue (unstarted, for 250 ms) for any worker. `0` hands it back at once. Longer
   * keeps such jobs on a busy worker when another one is free. @default 250
   */
  slotHoldMs: setting('FLOTILLA_SLOT_HOLD_MS', wholeNumber({ max: 60_000 }), 250),
  /** `FLOTILLA_STALLED_INTERVAL_MS`: how often workers look for stalled runs (lock lapsed). @default 2500 */
  stalledIntervalMs: setting('FLOTILLA_STALLED_INTERVAL_MS', wholeNumber({ min: 1 }), 2500),
  /** `FLOTILLA_MAX_STALLED_COUNT`: crashes a run survives before it fails. @default 3 */
  maxStalledCount: setting('FLOTILLA_MAX_STALLED_COUNT', wholeNumber(), 3),
  /**
   * `FLOTILLA_REQUEST_TIMEOUT_MS`: the longest a client call (submit, getRun, cancel, a
   * conversation read, each Redis read of `result()` / `events()`) waits for Redis before it fails
   * with `RedisUnavailableError`. Not a run deadline: a wait on a long run is never cut short
   * while Redis answers. @default 10000
   */
  requestTimeoutMs: setting('FLOTILLA_REQUEST_TIMEOUT_MS', wholeNumber({ min: 1 }), 10_000),
  /** `FLOTILLA_MAX_CHILDREN_PER_RUN`: child agent calls one run may make (`FanOutLimitExceededError` past it). @default 1000 */
  maxChildrenPerRun: setting('FLOTILLA_MAX_CHILDREN_PER_RUN', wholeNumber({ min: 1 }), 1000),
};

/** The schema of the whole runtime configuration. */
export const flotillaConfigSchema = configSchema(flotillaSettings);

/**
 * The runtime configuration, complete: every field has a value once `resolveConfig` ran, so
 * code past start-up never meets `undefined`. See {@link flotillaSettings} for each field's
 * environment variable and default.
 */
export type FlotillaConfig = z.infer<typeof flotillaConfigSchema>;

/** The value bounds of a configuration (`maxJsonDepth`, `maxPayloadBytes`). */
export function jsonLimitsOf(config: Pick<FlotillaConfig, 'maxJsonDepth' | 'maxPayloadBytes'>): JsonLimits {
  return { maxDepth: config.maxJsonDepth, maxBytes: config.maxPayloadBytes };
}
