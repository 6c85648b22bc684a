import { randomUUID } from 'node:crypto';
import { emptyUsage } from '@flotilla/ir';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { type Logger, pino } from 'pino';
import type { z } from 'zod';
import { boundedRequest, type RequestBound } from '../config/bounded-request.js';
import { type FlotillaConfig, jsonLimitsOf } from '../config/flotilla-config.js';
import { openRedis, type RedisConnectionOption } from '../config/open-redis.js';
import { resolveConfig } from '../config/resolve-config.js';
import { watchBullmqErrors } from '../config/watch-connection.js';
import { rootCallPath } from '../engine/execute-run.js';
import { AbortError, RunNotFoundError } from '../errors/run-errors.js';
import { serializeError } from '../errors/serialize-error.js';
import { ConversationGate } from '../gate/conversation-gate.js';
import type { OnConflict } from '../gate/waiting-for.js';
import { ENDED_JOB_RETENTION } from '../jobs/ended-job-retention.js';
import { encodeRunJobData } from '../jobs/run-job-data.js';
import { RedisRunRecords } from '../runs/redis-run-records.js';
import { runHasEnded } from '../runs/run-has-ended.js';
import type { RunRecord } from '../runs/run-record.js';
import { isTerminalStatus } from '../runs/run-status.js';
import type { LoadConversationOptions, StoredConversation } from '../store/conversation-store.js';
import { RedisConversationStore } from '../store/redis-conversation-store.js';
import { ConversationBusyError } from '../store/store-errors.js';
import { cancelRunTree } from './cancel-run-tree.js';
import { RedisRunHandle, type RunHandle } from './run-handle.js';
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
  /** @default process.env */
  env?: Readonly<Record<string, string | undefined>>;
}

/** Options of {@link FlotillaClient.submit}: the optional fields of a submission (see `submitRequestSchema`). */
export type SubmitOptions = Pick<
  z.input<typeof submitRequestSchema>,
  'runId' | 'conversationId' | 'onConflict' | 'scope' | 'timeoutMs'
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
   * Runs on one `conversationId` execute one at a time in submission order; `onConflict` says
   * what this one does when another holds or waits for the conversation: `enqueue` (default,
   * it waits without holding a worker slot, `getRun` shows `waitingFor`), `reject` (it ends
   * `failed` with `ConversationBusyError` at once: no job, no model call; `result()` rejects),
   * `interrupt` / `rollback` (every run ahead of it is cancelled, its unfinished turn stored
   * closed / discarded, then this one runs).
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
  const logger = options.logger ?? pino({ level: config.logLevel, name: 'flotilla-client' });
  // Commands fail at once while Redis is unreachable (no offline queue, no retries) and the
  // call is repeated once it is back, within the request timeout: a call that gave up never
  // runs later behind the caller's back.
  const redis = openRedis(options.connection ?? config.redisUrl, {
    role: 'client',
    logger,
    redis: { enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: config.requestTimeoutMs },
  });
  return new RedisFlotillaClient(config, { redis, timeoutMs: config.requestTimeoutMs }, logger);
}

class RedisFlotillaClient implements FlotillaClient {
  readonly config: FlotillaConfig;
  readonly #redis: Redis;
  readonly #queue: Queue;
  readonly #records: RedisRunRecords;
  readonly #conversations: RedisConversationStore;
  readonly #gate: ConversationGate;
  readonly #bound: RequestBound;
  readonly #logger: Logger;

  constructor(config: FlotillaConfig, bound: RequestBound, logger: Logger) {
    const { redis } = bound;
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
    this.#gate = new ConversationGate({
      redis,
      prefix: config.prefix,
      queue: this.#queue,
      hasEnded: runHasEnded(this.#records),
    });
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
      // submit that crashed (or lost Redis) between the record and the job; so is registering
      // on the conversation again (a run in line keeps its place).
      if (!created && (await this.#records.get(runId))?.status !== 'queued') return;
      let ahead: string[] = [];
      if (request.conversationId !== undefined) {
        const onConflict: OnConflict = request.onConflict ?? 'enqueue';
        const registration = await this.#gate.register(request.conversationId, runId, onConflict);
        if (registration.kind === 'busy') {
          await this.#rejectBusy(runId, agentId, request.conversationId, registration.holderRunId);
          return;
        }
        if (registration.kind === 'registered') ahead = registration.ahead;
      }
      await this.#queue.add(agentId, data, {
        jobId: runId,
        attempts: 1,
        ...ENDED_JOB_RETENTION,
      });
      for (const other of ahead) await this.#interrupt(other, runId, request.onConflict ?? 'interrupt');
    });
    return this.run<Output>(runId);
  }

  /** `reject`: the run ends `failed` before any job exists, so nothing runs and nothing waits. */
  async #rejectBusy(runId: string, agentId: string, conversationId: string, holderRunId: string) {
    await this.#records.finish(runId, rootCallPath(agentId), {
      status: 'failed',
      error: serializeError(new ConversationBusyError(conversationId, holderRunId)),
      usage: emptyUsage(),
      modelCalls: 0,
    });
  }

  /** `interrupt` / `rollback`: cancels a run ahead of `runId` on its conversation. */
  async #interrupt(otherRunId: string, runId: string, onConflict: OnConflict): Promise<void> {
    const record = await this.#records.get(otherRunId);
    if (!record || isTerminalStatus(record.status)) return;
    await cancelRunTree(this.#cancelOptions(), record, (run) => ({
      status: 'cancelled',
      error: serializeError(
        new AbortError(`run ${run.runId} was interrupted by run ${runId} (onConflict: '${onConflict}')`),
      ),
    }));
  }

  #cancelOptions() {
    return {
      redis: this.#redis,
      prefix: this.config.prefix,
      queue: this.#queue,
      records: this.#records,
      flagSeconds: this.config.runRetentionSeconds,
    };
  }

  run<Output>(runId: string): RunHandle<Output> {
    return new RedisRunHandle<Output>({
      runId,
      bound: this.#bound,
      prefix: this.config.prefix,
      records: this.#records,
      logger: this.#logger,
    });
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
    await cancelRunTree(this.#cancelOptions(), record);
  }

  getConversation(
    conversationId: string,
    options?: LoadConversationOptions,
  ): Promise<StoredConversation | undefined> {
    return boundedRequest(this.#bound, () => this.#conversations.load(conversationId, options));
  }

  async close(): Promise<void> {
    await this.#queue.close();
    await this.#redis.quit().catch(() => this.#redis.disconnect());
  }
}
