import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { type Logger, pino } from 'pino';
import type { z } from 'zod';
import { boundedRequest, type RequestBound } from '../config/bounded-request.js';
import { type FlotillaConfig, jsonLimitsOf } from '../config/flotilla-config.js';
import { openRedis, type RedisConnectionOption } from '../config/open-redis.js';
import { resolveConfig } from '../config/resolve-config.js';
import { watchBullmqErrors } from '../config/watch-connection.js';
import { RunNotFoundError } from '../errors/run-errors.js';
import { SharedEventReader } from '../events/shared-event-reader.js';
import { ENDED_JOB_RETENTION } from '../jobs/ended-job-retention.js';
import { encodeRunJobData } from '../jobs/run-job-data.js';
import { RedisRunRecords } from '../runs/redis-run-records.js';
import type { RunRecord } from '../runs/run-record.js';
import { isTerminalStatus } from '../runs/run-status.js';
import { redactingLogOptions } from '../shared/redact-secrets.js';
import type { LoadConversationOptions, StoredConversation } from '../store/conversation-store.js';
import { RedisConversationStore } from '../store/redis-conversation-store.js';
import { cancelRunTree } from './cancel-run-tree.js';
import { eventsConnectionName, RedisRunHandle, type RunHandle } from './run-handle.js';
import { parseSubmitRequest, type submitRequestSchema } from './submit-request.js';

/** Options of {@link createClient}; unset ones come from the environment, then defaults. */
export interface CreateClientOptions {
  /** A Redis URL or a connection to duplicate. @default REDIS_URL, else 'redis://127.0.0.1:6379' */
  connection?: RedisConnectionOption;
  /** @default FLOTILLA_PREFIX, else 'flotilla' */
  prefix?: string;
  /** @default FLOTILLA_QUEUE, else 'agents' */
  queueName?: string;
  /**
   * The longest any call waits for Redis before it fails with `RedisUnavailableError` (not a
   * run deadline: `result()` waits for a run as long as it takes while Redis answers).
   * @default FLOTILLA_REQUEST_TIMEOUT_MS, else 10000
   */
  requestTimeoutMs?: number;
  /** Where connection outages are logged (once per change). @default pino at LOG_LEVEL, named `flotilla-client` */
  logger?: Logger;
  /**
   * Every event reader of this client (`run(id).events()`, `result()`) blocks on ONE shared
   * connection (one XREAD over all the streams read, fanned out) instead of a connection each:
   * for a server following many runs at once (the scheduler's SSE streams), so open streams do
   * not use up Redis' `maxclients`. @default false: a connection per reader, closed with it
   */
  shareEventReads?: boolean;
  /** @default process.env */
  env?: Readonly<Record<string, string | undefined>>;
}

/** Options of {@link FlotillaClient.submit}: the optional fields of a submission (see `submitRequestSchema`). */
export type SubmitOptions = Pick<
  z.input<typeof submitRequestSchema>,
  'runId' | 'conversationId' | 'scope' | 'timeoutMs'
>;

/**
 * Submits runs and reads, waits for and cancels them. Every call waits for Redis at most
 * `requestTimeoutMs` (through an outage too) and then fails with `RedisUnavailableError`; every
 * call is safe to repeat.
 */
export interface FlotillaClient {
  readonly config: FlotillaConfig;
  /**
   * Submits a run of `agentId` (an id, or an agent whose `id` is used) with `input` (JSON).
   * Idempotent by `runId`: a second submit with an existing run id returns the same run.
   * @throws InvalidSubmitRequestError naming the field when an id or the scope breaks its rule (nothing is written)
   * @throws ValueTooDeepError / PayloadTooLargeError when `input` or `scope` is nested deeper or is larger
   *   than workers accept (`FLOTILLA_MAX_JSON_DEPTH`, `FLOTILLA_MAX_PAYLOAD_BYTES`; nothing is written)
   * @throws NotJsonError when `input` or `scope` has no JSON form (a BigInt, a cycle)
   */
  submit<Output = unknown>(
    agent: string | { id: string },
    input: unknown,
    options?: SubmitOptions,
  ): Promise<RunHandle<Output>>;
  /** A handle on an existing run (nothing is checked until it is used). */
  run<Output = unknown>(runId: string): RunHandle<Output>;
  /** The run's record, or `undefined` when there is none. */
  getRun(runId: string): Promise<RunRecord | undefined>;
  /**
   * Cancels a run and every child run below it, across workers: a queued or suspended run is
   * removed and ends `cancelled` at once; a running one is aborted by its worker (through
   * pub/sub and a cancel flag) and ends `cancelled` soon after — within the worker's
   * `abandonGraceMs` (default 500 ms) plus a few round trips even when its code ignores the
   * signal (the code is then abandoned and its writes refused). Runs that already ended are
   * left as they are.
   * @throws RunNotFoundError when there is no such run
   */
  cancel(runId: string): Promise<void>;
  /** A stored conversation, at its latest version or `options.version`. */
  getConversation(
    conversationId: string,
    options?: LoadConversationOptions,
  ): Promise<StoredConversation | undefined>;
  /**
   * Resolves when Redis answers a PING within `timeoutMs` (for health checks).
   * @throws RedisUnavailableError when it does not
   */
  ping(timeoutMs?: number): Promise<void>;
  /** Closes the client's connections (handles' own waits close theirs). */
  close(): Promise<void>;
}

/**
 * Creates a client of the agents queue.
 * @throws InvalidConfigError when an option or environment variable is invalid
 * @example
 * const client = createClient();
 * const run = await client.submit('summarizer', { text: '…' });
 * console.log(await run.result());
 */
export function createClient(options: CreateClientOptions = {}): FlotillaClient {
  const config = resolveConfig(
    {
      prefix: options.prefix,
      queueName: options.queueName,
      redisUrl: typeof options.connection === 'string' ? options.connection : undefined,
      requestTimeoutMs: options.requestTimeoutMs,
    },
    options.env,
  );
  const logger =
    options.logger ?? pino({ level: config.logLevel, name: 'flotilla-client', ...redactingLogOptions() });
  // Commands fail at once while Redis is unreachable (no offline queue, no retries) and the
  // call is repeated once it is back, within the request timeout: a call that gave up never
  // runs later behind the caller's back.
  const redis = openRedis(options.connection ?? config.redisUrl, {
    role: 'client',
    logger,
    redis: { enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: config.requestTimeoutMs },
  });
  // Every call waiting through an outage listens for 'ready' (see untilRedisReady): a server
  // with many requests in flight is not a listener leak. Infinity, not 0: BullMQ adds to it.
  redis.setMaxListeners(Number.POSITIVE_INFINITY);
  const bound = { redis, timeoutMs: config.requestTimeoutMs };
  const sharedReader = options.shareEventReads
    ? new SharedEventReader({
        control: redis,
        // Inherits the client's fail-fast settings; XREAD BLOCK needs no command timeout.
        openBlocking: () =>
          openRedis(redis, {
            role: 'run-events',
            logger,
            redis: { connectionName: eventsConnectionName(config.prefix), commandTimeout: undefined },
          }),
      })
    : undefined;
  return new RedisFlotillaClient(config, bound, logger, sharedReader);
}

class RedisFlotillaClient implements FlotillaClient {
  readonly config: FlotillaConfig;
  readonly #redis: Redis;
  readonly #queue: Queue;
  readonly #records: RedisRunRecords;
  readonly #conversations: RedisConversationStore;
  readonly #bound: RequestBound;
  readonly #logger: Logger;
  readonly #sharedReader: SharedEventReader | undefined;

  constructor(
    config: FlotillaConfig,
    bound: RequestBound,
    logger: Logger,
    sharedReader: SharedEventReader | undefined,
  ) {
    const { redis } = bound;
    this.#sharedReader = sharedReader;
    this.config = config;
    this.#redis = redis;
    this.#bound = bound;
    this.#logger = logger;
    this.#queue = new Queue(config.queueName, { connection: redis, prefix: config.prefix });
    watchBullmqErrors(this.#queue, { role: 'client-queue', logger });
    this.#records = new RedisRunRecords({
      redis,
      prefix: config.prefix,
      retention: {
        recordSeconds: config.runRetentionSeconds,
        journalSeconds: config.journalRetentionSeconds,
      },
      eventStreamMaxLength: config.eventStreamMaxLength,
    });
    this.#conversations = new RedisConversationStore({ redis, prefix: config.prefix });
  }

  async submit<Output>(
    agent: string | { id: string },
    input: unknown,
    options: SubmitOptions = {},
  ): Promise<RunHandle<Output>> {
    const request = parseSubmitRequest(
      { ...options, agentId: typeof agent === 'string' ? agent : agent.id, input },
      jsonLimitsOf(this.config),
    );
    const { agentId } = request;
    const runId = request.runId ?? randomUUID();
    const deadline = request.timeoutMs === undefined ? undefined : Date.now() + request.timeoutMs;
    const data = encodeRunJobData(request.input, { ...request, deadline });
    if (data.input === undefined)
      throw new TypeError('The run input has no JSON form; pass JSON values only.');
    await boundedRequest(this.#bound, async () => {
      const created = await this.#records.create({ runId, agentId, conversationId: request.conversationId });
      // A record created just now is queued (no job exists yet to start it): no need to read it.
      // Adding again while queued is safe (BullMQ ignores an existing job id) and repairs a
      // submit that crashed (or lost Redis) between the record and the job.
      if (created || (await this.#records.get(runId))?.status === 'queued') {
        await this.#queue.add(agentId, data, {
          jobId: runId,
          attempts: 1,
          ...ENDED_JOB_RETENTION,
        });
      }
    });
    return this.run<Output>(runId);
  }

  run<Output>(runId: string): RunHandle<Output> {
    return new RedisRunHandle<Output>({
      runId,
      bound: this.#bound,
      prefix: this.config.prefix,
      records: this.#records,
      logger: this.#logger,
      sharedReader: this.#sharedReader,
    });
  }

  async ping(timeoutMs = this.#bound.timeoutMs): Promise<void> {
    await boundedRequest({ redis: this.#redis, timeoutMs }, () => this.#redis.ping());
  }

  getRun(runId: string): Promise<RunRecord | undefined> {
    return boundedRequest(this.#bound, () => this.#records.get(runId));
  }

  cancel(runId: string): Promise<void> {
    return boundedRequest(this.#bound, () => this.#cancel(runId));
  }

  async #cancel(runId: string): Promise<void> {
    const record = await this.#records.get(runId);
    if (!record) throw new RunNotFoundError(runId);
    if (isTerminalStatus(record.status)) return;
    await cancelRunTree(
      {
        redis: this.#redis,
        prefix: this.config.prefix,
        queue: this.#queue,
        records: this.#records,
        flagSeconds: this.config.runRetentionSeconds,
      },
      record,
    );
  }

  getConversation(
    conversationId: string,
    options?: LoadConversationOptions,
  ): Promise<StoredConversation | undefined> {
    return boundedRequest(this.#bound, () => this.#conversations.load(conversationId, options));
  }

  async close(): Promise<void> {
    this.#sharedReader?.close();
    await this.#queue.close();
    await this.#redis.quit().catch(() => this.#redis.disconnect());
  }
}
