import { randomUUID } from 'node:crypto';
import { emptyUsage } from '@flotilla/ir';
import type { Telemetry } from 'bullmq';
import type { Redis } from 'ioredis';
import { type Logger, pino } from 'pino';
import type { z } from 'zod';
import { boundedRequest, type RequestBound } from '../config/bounded-request.js';
import { coalesceWrites } from '../config/coalesce-writes.js';
import { type FlotillaConfig, jsonLimitsOf } from '../config/flotilla-config.js';
import { openRedis, type RedisConnectionOption } from '../config/open-redis.js';
import { resolveConfig } from '../config/resolve-config.js';
import type { ApprovalAnswer } from '../context/run-services.js';
import { rootCallPath } from '../engine/execute-run.js';
import { AbortError, RunIdConflictError, RunNotFoundError } from '../errors/run-errors.js';
import { serializeError } from '../errors/serialize-error.js';
import { ClusterEventReader, type EventReader } from '../events/cluster-event-reader.js';
import { RunEndReader } from '../events/run-end-reader.js';
import { SharedEventReader } from '../events/shared-event-reader.js';
import { ConversationGate } from '../gate/conversation-gate.js';
import type { OnConflict } from '../gate/waiting-for.js';
import { AgentQueues, runJobFinder } from '../jobs/agent-queues.js';
import { idSchema, runIdSchema, TENANT_RULE, tenantSchema } from '../jobs/id-rule.js';
import { QUEUE_DEPTH_STATES, type QueueDepth, queueDepthOf } from '../jobs/queue-depth.js';
import { encodeRunJobData } from '../jobs/run-job-data.js';
import { qualifyId, unqualifyId } from '../jobs/tenant-ids.js';
import { LiveWorkers, ServedAgents, type WorkerInfo, WorkerRegistry } from '../registry/worker-registry.js';
import type { RunExport } from '../replay/run-export.js';
import { withBuildWait, withBuildWaits } from '../runs/build-wait.js';
import { RedisRunRecords } from '../runs/redis-run-records.js';
import { runHasEnded } from '../runs/run-has-ended.js';
import type { RunRecord } from '../runs/run-record.js';
import { isTerminalStatus } from '../runs/run-status.js';
import { RedisSchedules, type ScheduleInfo } from '../schedules/redis-schedules.js';
import { parseScheduleRequest, type ScheduleRequest } from '../schedules/schedule-request.js';
import { redactingLogOptions } from '../shared/redact-secrets.js';
import type { LoadConversationOptions, StoredConversation } from '../store/conversation-store.js';
import { RedisConversationStore } from '../store/redis-conversation-store.js';
import { ConversationBusyError } from '../store/store-errors.js';
import { type ApprovalOutcome, answerApproval } from '../waits/answer-approval.js';
import { type SignalOptions, type SignalReceipt, sendSignal } from '../waits/send-signal.js';
import { cancelRunTree } from './cancel-run-tree.js';
import { enqueueRun, type RunToEnqueue } from './enqueue-run.js';
import { exportStoredRun } from './export-run.js';
import { InvalidRunQueryError } from './invalid-run-query-error.js';
import { InvalidTenantError } from './invalid-tenant-error.js';
import { listStoredRuns, type RunList } from './list-runs.js';
import { type ListRunsQuery, parseListRunsQuery } from './list-runs-query.js';
import {
  eventsConnectionName,
  MissingRunHandle,
  RedisRunHandle,
  type RunHandle,
  type RunHandleContext,
} from './run-handle.js';
import { DEFAULT_RUN_TREE_NODES, MAX_RUN_TREE_NODES, type RunTree, readRunTree } from './run-tree.js';
import { submissionHashOf } from './submission-hash.js';
import {
  parseSubmitRequest,
  type SubmitRequest,
  startTimeOf,
  type submitRequestSchema,
} from './submit-request.js';

/** Options of {@link createClient}; unset ones come from the environment, then defaults. */
export interface CreateClientOptions {
  /** A Redis URL or a connection to duplicate. @default REDIS_URL, else 'redis://127.0.0.1:6379' */
  connection?: RedisConnectionOption;
  /** @default FLOTILLA_PREFIX, else 'flotilla' */
  prefix?: string;
  /** First part of every agent queue's name (`<queueName>/<agentId>`). @default FLOTILLA_QUEUE, else 'agents' */
  queueName?: string;
  /**
   * The longest any call waits for Redis before it fails with `RedisUnavailableError` (not a
   * run deadline: `result()` waits for a run as long as it takes while Redis answers).
   * @default FLOTILLA_REQUEST_TIMEOUT_MS, else 10000
   */
  requestTimeoutMs?: number;
  /** For a `rediss://` URL: a PEM file of the CA(s) to trust. @default FLOTILLA_REDIS_TLS_CA_FILE, else Node's CAs */
  redisTlsCaFile?: string;
  /** Where connection outages are logged (once per change). @default pino at LOG_LEVEL, named `flotilla-client` */
  logger?: Logger;
  /**
   * Every event reader of this client (`run(id).events()`, `result()`) blocks on ONE shared
   * connection (one XREAD over all the streams read, fanned out) instead of a connection each:
   * for a server following many runs at once (the scheduler's SSE streams), so open streams do
   * not use up Redis' `maxclients`. On a Redis Cluster (where one XREAD cannot span slots)
   * readers share one sharded subscriber connection per master instead, woken by the notices
   * event writers publish (`events/cluster-event-reader.ts`). `result()` always shares.
   * @default false: a connection per `events()` reader, closed with it
   */
  shareEventReads?: boolean;
  /** @default process.env */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Scope every call to this tenant's runs and conversations (see {@link FlotillaClient.forTenant}).
   * @default none: the runs and conversations of no tenant
   */
  tenant?: string;
  /**
   * BullMQ telemetry (e.g. `new BullMQOtel('flotilla')` from `bullmq-otel`): a submit carries the
   * caller's active trace context into the run's job, so the run tree joins the caller's trace.
   * @default none
   */
  telemetry?: Telemetry;
}

/** Options of {@link FlotillaClient.submit}: the optional fields of a submission (see `submitRequestSchema`). */
export type SubmitOptions = Pick<
  z.input<typeof submitRequestSchema>,
  'runId' | 'conversationId' | 'onConflict' | 'scope' | 'timeoutMs' | 'delayMs'
> & {
  /** Start the run no earlier than this time (epoch ms or a Date); not with `delayMs`. @default now */
  runAt?: number | Date;
};

/**
 * Submits runs and reads, waits for and cancels them. Every call waits for Redis at most
 * `requestTimeoutMs` (through an outage too) and then fails with `RedisUnavailableError`; every
 * call is safe to repeat.
 */
export interface FlotillaClient {
  readonly config: FlotillaConfig;
  /**
   * Submits a run of `agentId` (an id, or an agent whose `id` is used) with `input` (JSON).
   * Idempotent by `runId`: submitting the same submission (agent, input and every option) again
   * returns the same run.
   * Runs on one `conversationId` execute one at a time in submission order; `onConflict` says
   * what this one does when another holds or waits for the conversation: `enqueue` (default,
   * it waits without holding a worker slot, `getRun` shows `waitingFor`), `reject` (it ends
   * `failed` with `ConversationBusyError` at once: no job, no model call; `result()` rejects),
   * `interrupt` / `rollback` (every run ahead of it is cancelled, its unfinished turn stored
   * closed / discarded, then this one runs).
   * The run goes to its agent's queue and only a worker serving that agent takes it; while no
   * live worker serves the agent it waits (`getRun` shows `waitingFor: { kind: 'worker' }`).
   * @throws RunIdConflictError when `runId` was already started by a different submission (nothing is written)
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
  /**
   * Saves a schedule: runs of `agentId` with `input` fired on a cron pattern (`cron`, in
   * `timezone`, default UTC) or every `everyMs`, from `startAt` on, each continuing
   * `conversationId` when given. Idempotent upsert by `id` (saving it again replaces it). On
   * BullMQ's job schedulers: each firing is a normal run with its own record, `scheduleId` set,
   * run id `<id>-<due time ms>` (`listRuns({ scheduleId })` lists them). A schedule whose agent
   * no live worker serves is saved and shows `served: false`; its next firing waits in the
   * agent's queue and runs late when a worker comes; firings due meanwhile are not made up.
   * @throws InvalidScheduleError naming the field when the schedule breaks a rule (nothing is written)
   */
  schedule(schedule: ScheduleRequest): Promise<ScheduleInfo>;
  /** The saved schedules (of this client's tenant), by id, with their next firing and whether a worker serves them. */
  listSchedules(): Promise<ScheduleInfo[]>;
  /** Removes a schedule: no more firings (runs already fired go on). `false` when there was no such schedule. */
  removeSchedule(id: string): Promise<boolean>;
  /** A handle on an existing run (nothing is checked until it is used: then `RunNotFoundError`). */
  run<Output = unknown>(runId: string): RunHandle<Output>;
  /** The run's record, or `undefined` when there is none (or `runId` is not a valid run id). */
  getRun(runId: string): Promise<RunRecord | undefined>;
  /**
   * A page of runs, newest first, from the run list indexes: filter by `status`, `agentId`,
   * `rootRunId` (a whole tree, the root included), `conversationId`, `scheduleId` (a schedule's
   * firings) and created time; `limit`
   * (1 to 1000, default 50) runs at most; pass `nextCursor` back as `cursor` for the next page
   * (no `nextCursor`: nothing more). A page can hold fewer than `limit` runs and still have a
   * `nextCursor` when its filters match few of the runs walked (at most 5000 per call). Runs
   * whose record expired (retention) are not listed. A tenant's view lists only that tenant's
   * runs, with its ids; the client without a tenant lists runs of no tenant, or of `tenant`.
   * @throws InvalidRunQueryError naming the field when a filter, `limit` or `cursor` is invalid
   */
  listRuns(query?: ListRunsQuery): Promise<RunList>;
  /**
   * The run `rootRunId` and every child run below it, nested (agent, status, waitingFor,
   * attempts, model calls, usage, duration, progress), or `undefined` when there is no such run.
   * At most `maxNodes` runs (default 1000, at most 5000): `truncated` says when some were left out.
   * Any run can be the root asked for: its subtree comes back.
   */
  getRunTree(rootRunId: string, options?: { maxNodes?: number }): Promise<RunTree | undefined>;
  /**
   * The run as a run export (`replayRun` in `@flotilla/runtime/testing` replays current code
   * against it): its input, whole journal, child runs' outcomes, stored memory and build, as one
   * versioned JSON document (format `flotilla.run-export`, version 1, at most 64 MiB), or
   * `undefined` when there is no such run. A run's journal stays
   * `FLOTILLA_JOURNAL_RETENTION_SECONDS` after it ends (7 days by default); export runs worth
   * keeping before then.
   * @throws RunNotExportableError when the run has not started yet
   * @throws RunExportTooLargeError past 64 MiB; JournalCorruptedError for an entry that does not parse
   */
  exportRun(runId: string): Promise<RunExport | undefined>;
  /**
   * Cancels a run and every child run below it, across workers: a queued or suspended run is
   * removed and ends `cancelled` at once; a running one is aborted by its worker (through
   * pub/sub and a cancel flag) and ends `cancelled` soon after — within the worker's
   * `abandonGraceMs` (default 500 ms) plus a few round trips even when its code ignores the
   * signal (the code is then abandoned and its writes refused). Runs that already ended are
   * left as they are.
   * @throws RunNotFoundError when there is no such run (or `runId` is not a valid run id)
   */
  cancel(runId: string): Promise<void>;
  /**
   * Sends signal `name` with `payload` (JSON) to the run: its next (or a later) `waitForSignal(name)`
   * returns it. Signals of one name queue up in arrival order, so one sent before the run
   * waits is kept; a repeated `options.id` is ignored (`duplicate: true`): sends are idempotent.
   * When the run already waits on `name` with a schema, the payload is checked against it first.
   * @throws InvalidSignalPayloadError when the payload does not match that schema (nothing is queued; the run keeps waiting)
   * @throws InvalidWaitError when `name` or `options.id` breaks the id rule
   * @throws PayloadTooLargeError / ValueTooDeepError / NotJsonError when the payload is not JSON within the fleet's bounds
   * @throws RunNotFoundError when there is no such run; RunEndedError when it already ended
   */
  signal(runId: string, name: string, payload: unknown, options?: SignalOptions): Promise<SignalReceipt>;
  /**
   * Answers the approval a tool call of the run awaits (`needsApproval`; its id is in the
   * `approval-requested` event and the run's `waits`): `approved` runs the tool once (with
   * `args` instead of the model's when given, checked against the tool's schema), rejected
   * never runs it and the model reads the `reason`. The first answer stands: the same answer
   * again is `already-answered`, another one fails.
   * @throws InvalidApprovalError for an answer of the wrong shape
   * @throws UnknownApprovalError when the run asked no approval of `callId`
   * @throws ApprovalAlreadyAnsweredError when the call was answered differently before
   * @throws RunNotFoundError when there is no such run; RunEndedError when it already ended
   */
  approve(runId: string, callId: string, answer: ApprovalAnswer): Promise<ApprovalOutcome>;
  /** A stored conversation, at its latest version or `options.version` (`undefined` for an invalid id). */
  getConversation(
    conversationId: string,
    options?: LoadConversationOptions,
  ): Promise<StoredConversation | undefined>;
  /**
   * The live workers of the fleet (every tenant's: workers serve agents, not tenants), by id:
   * each announces itself every second and drops out 5 s after its last heartbeat.
   */
  listWorkers(): Promise<WorkerInfo[]>;
  /**
   * How many jobs wait in each agent's queue (every tenant's: queues are per agent, like
   * workers), in the order asked; an id that breaks the id rule is left out.
   */
  getQueueDepths(agentIds: readonly string[]): Promise<QueueDepth[]>;
  /**
   * Resolves when Redis answers a PING within `timeoutMs` (for health checks).
   * @throws RedisUnavailableError when it does not
   */
  ping(timeoutMs?: number): Promise<void>;
  /**
   * A view of this client scoped to `tenant`: it submits, reads, waits for and cancels only that
   * tenant's runs, and reads only its conversations. Run and conversation ids are the tenant's
   * own: the same id in two tenants (or in a tenant and the client without one) names two runs,
   * and another tenant's run is "not found". The view shares this client's connections; its
   * `close()` does nothing (close the client it came from). A tenant view gives only views of its
   * own tenant.
   * @throws InvalidTenantError when `tenant` breaks the tenant rule (1 to 64 ASCII letters, digits, `_` or `-`), or this client is scoped to another tenant
   */
  forTenant(tenant: string): FlotillaClient;
  /** The tenant this client is scoped to, or `undefined` for the runs of no tenant. */
  readonly tenant: string | undefined;
  /** Closes the client's connections (handles' own waits close theirs); a tenant view's does nothing. */
  close(): Promise<void>;
}

/**
 * Creates a client of the agent queues.
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
      redisTlsCaFile: options.redisTlsCaFile,
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
    tlsCaFile: config.redisTlsCaFile,
    redis: { enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: config.requestTimeoutMs },
  });
  // Every call waiting through an outage listens for 'ready' (see untilRedisReady): a server
  // with many requests in flight is not a listener leak. Infinity, not 0: BullMQ adds to it.
  redis.setMaxListeners(Number.POSITIVE_INFINITY);
  // Commands of concurrent submits and waits sent in the same tick share one socket write.
  coalesceWrites(redis);
  // A connection for notices (named as the readers): subscriptions wait for it (or for the
  // cluster to be ready); every wait has its own deadline.
  const openSubscriber = (cluster?: { shardedSubscribers: true }) => () =>
    openRedis(redis, {
      role: 'run-events',
      logger,
      redis: {
        connectionName: eventsConnectionName(config.prefix),
        commandTimeout: undefined,
        enableOfflineQueue: true,
      },
      ...(cluster && { cluster }),
    });
  const newSharedReader = (): EventReader =>
    redis.isCluster
      ? // One XREAD over many runs' streams spans slots on a Redis Cluster (and CLIENT UNBLOCK is
        // per node): there readers wait for sharded notices on one connection per master.
        new ClusterEventReader({
          control: redis,
          openSubscriber: openSubscriber({ shardedSubscribers: true }),
        })
      : new SharedEventReader({
          control: redis,
          // Inherits the client's fail-fast settings; XREAD BLOCK needs no command timeout.
          openBlocking: () =>
            openRedis(redis, {
              role: 'run-events',
              logger,
              redis: { connectionName: eventsConnectionName(config.prefix), commandTimeout: undefined },
            }),
        });
  const sharedReader = options.shareEventReads ? newSharedReader() : undefined;
  // `result()` waits on one reader of the client whatever `shareEventReads` says: a connection
  // per awaited run cost a connect, a ready check (INFO) and a name per run (on a cluster, a
  // connection to every master per run). On one Redis, for its run's end notice alone.
  const resultReader = redis.isCluster
    ? (sharedReader ?? newSharedReader())
    : new RunEndReader({
        control: redis,
        logger,
        openSubscriber: openSubscriber(),
        fallback: () => sharedReader ?? newSharedReader(),
      });
  const tenant = options.tenant === undefined ? undefined : checkedTenant(options.tenant);
  const connections = openConnections(
    config,
    { redis, timeoutMs: config.requestTimeoutMs },
    logger,
    { sharedReader, resultReader },
    options.telemetry,
  );
  return new RedisFlotillaClient(connections, tenant, true);
}

/** What a client and its tenant views share. */
interface ClientConnections {
  config: FlotillaConfig;
  redis: Redis;
  queues: AgentQueues;
  records: RedisRunRecords;
  registry: WorkerRegistry;
  served: ServedAgents;
  /** The live workers, for pinned runs waiting for their build (`runs/build-wait.ts`). */
  liveWorkers: LiveWorkers;
  conversations: RedisConversationStore;
  /** The line of writers of each conversation (one writer per conversation). */
  gate: ConversationGate;
  /** The schedules (BullMQ job schedulers in the agent queues, listed per tenant). */
  schedules: RedisSchedules;
  /** One blocking XREAD for every event reader (`shareEventReads`), or none. */
  sharedReader: EventReader | undefined;
  /** One blocking XREAD for every `result()` (the shared reader when there is one). */
  resultReader: EventReader | undefined;
  bound: RequestBound;
  logger: Logger;
}

function openConnections(
  config: FlotillaConfig,
  bound: RequestBound,
  logger: Logger,
  {
    sharedReader,
    resultReader,
  }: { sharedReader: EventReader | undefined; resultReader: EventReader | undefined },
  telemetry: Telemetry | undefined,
): ClientConnections {
  const { redis } = bound;
  const queues = new AgentQueues({
    connection: redis,
    prefix: config.prefix,
    queueName: config.queueName,
    logger,
    role: 'client-queue',
    telemetry,
  });
  const records = new RedisRunRecords({
    redis,
    prefix: config.prefix,
    retention: {
      recordSeconds: config.runRetentionSeconds,
      journalSeconds: config.journalRetentionSeconds,
    },
    eventStreamMaxLength: config.eventStreamMaxLength,
  });
  const conversations = new RedisConversationStore({
    redis,
    prefix: config.prefix,
    chunkBytes: config.conversationChunkBytes,
  });
  const findJob = runJobFinder(records, queues);
  const gate = new ConversationGate({
    redis,
    prefix: config.prefix,
    findJob,
    hasEnded: runHasEnded(records),
  });
  const registry = new WorkerRegistry(redis, config.prefix);
  const served = new ServedAgents(registry);
  const schedules = new RedisSchedules({ redis, prefix: config.prefix, queues, served });
  return {
    ...{ config, redis, queues, records, conversations, gate, sharedReader, resultReader, bound, logger },
    ...{ registry, served, schedules, liveWorkers: new LiveWorkers(registry) },
  };
}

/** `record` (of `tenant`) with the ids its tenant gave (stored ids without the tenant qualifier). */
function namedFor(tenant: string | undefined, record: RunRecord): RunRecord {
  if (tenant === undefined) return record;
  const named: RunRecord = { ...record, runId: unqualifyId(record.runId) };
  if (record.parentRunId !== undefined) named.parentRunId = unqualifyId(record.parentRunId);
  if (record.rootRunId !== undefined) named.rootRunId = unqualifyId(record.rootRunId);
  if (record.conversationId !== undefined) named.conversationId = unqualifyId(record.conversationId);
  if (record.scheduleId !== undefined) named.scheduleId = unqualifyId(record.scheduleId);
  return named;
}

function checkedTenant(tenant: string): string {
  if (!tenantSchema.safeParse(tenant).success)
    throw new InvalidTenantError(String(tenant), `${TENANT_RULE}; name tenants by that rule`);
  return tenant;
}

/** A checked submission, ready to write. */
interface Submission {
  /** The run id as the caller names it. */
  runId: string;
  request: SubmitRequest;
  /** When the run may start (epoch ms). */
  startAt: number;
  /** What is written (stored ids); `delayMs` is set at each attempt. */
  run: RunToEnqueue;
}

/**
 * The client, scoped to one tenant or to none. Every id a caller passes is checked by the id
 * rule, then qualified by the tenant (`jobs/tenant-ids.ts`) before it reaches a key; records and
 * conversations come back with the caller's ids.
 */
class RedisFlotillaClient implements FlotillaClient {
  readonly config: FlotillaConfig;
  readonly tenant: string | undefined;
  readonly #shared: ClientConnections;
  readonly #redis: Redis;
  readonly #queues: AgentQueues;
  readonly #records: RedisRunRecords;
  readonly #conversations: RedisConversationStore;
  readonly #gate: ConversationGate;
  readonly #bound: RequestBound;
  readonly #logger: Logger;
  readonly #sharedReader: EventReader | undefined;
  /** What every run handle of this client (or view) shares. */
  readonly #handles: RunHandleContext;
  /** Whether `close()` closes the connections (the client), or not (a tenant view). */
  readonly #owner: boolean;

  constructor(shared: ClientConnections, tenant: string | undefined, owner: boolean) {
    this.#shared = shared;
    this.config = shared.config;
    this.tenant = tenant;
    this.#redis = shared.redis;
    this.#bound = shared.bound;
    this.#logger = shared.logger;
    this.#queues = shared.queues;
    this.#records = shared.records;
    this.#conversations = shared.conversations;
    this.#gate = shared.gate;
    this.#sharedReader = shared.sharedReader;
    this.#handles = {
      tenant,
      bound: shared.bound,
      prefix: shared.config.prefix,
      records: shared.records,
      logger: shared.logger,
      sharedReader: shared.sharedReader,
      resultReader: shared.resultReader,
    };
    this.#owner = owner;
  }

  forTenant(tenant: string): FlotillaClient {
    const checked = checkedTenant(tenant);
    // A view never widens: code handed one tenant's view cannot reach another tenant with it.
    if (this.tenant !== undefined && checked !== this.tenant)
      throw new InvalidTenantError(checked, `this client is scoped to tenant "${this.tenant}"`);
    return new RedisFlotillaClient(this.#shared, checked, false);
  }

  /** The stored form of a caller's id. */
  #stored(id: string): string {
    return qualifyId(this.tenant, id);
  }

  async submit<Output>(
    agent: string | { id: string },
    input: unknown,
    options: SubmitOptions = {},
  ): Promise<RunHandle<Output>> {
    const submission = this.#submission(agent, input, options);
    const queuedAt = await boundedRequest(this.#bound, () => this.#enqueue(submission));
    return this.#handle<Output>(submission.runId, queuedAt);
  }

  /** Checks a submission and builds what `#enqueue` writes (nothing is written yet). */
  #submission(agent: string | { id: string }, input: unknown, options: SubmitOptions): Submission {
    const runAt = options.runAt instanceof Date ? options.runAt.getTime() : options.runAt;
    const request = parseSubmitRequest(
      {
        ...options,
        ...(runAt !== undefined && { runAt }),
        agentId: typeof agent === 'string' ? agent : agent.id,
        input,
      },
      jsonLimitsOf(this.config),
    );
    const runId = request.runId ?? randomUUID();
    const conversationId =
      request.conversationId === undefined ? undefined : this.#stored(request.conversationId);
    // A delayed run's deadline counts from when it may start.
    const startAt = startTimeOf(request);
    const deadline = request.timeoutMs === undefined ? undefined : startAt + request.timeoutMs;
    const data = encodeRunJobData(request.input, {
      conversationId,
      onConflict: request.onConflict,
      scope: request.scope,
      deadline,
    });
    if (data.input === undefined)
      throw new TypeError('The run input has no JSON form; pass JSON values only.');
    return {
      runId,
      request,
      startAt,
      run: {
        runId: this.#stored(runId),
        agentId: request.agentId,
        conversationId,
        tenant: this.tenant,
        // The input's JSON text is the job data's: written once.
        submissionHash: submissionHashOf(request, data.input),
        data,
        onConflict: request.onConflict ?? 'enqueue',
      },
    };
  }

  /** The writes of a submission (repeatable); when it left the run queued (`performance.now()`), if it did. */
  async #enqueue({ runId, request, startAt, run }: Submission): Promise<number | undefined> {
    // From now at every attempt: a submit retried after an outage starts the run no later than asked.
    run.delayMs = startAt - Date.now();
    const enqueued = await enqueueRun(this.#shared, run);
    if (enqueued.kind === 'queued') {
      for (const other of enqueued.ahead)
        await this.#interrupt(other, runId, request.onConflict ?? 'interrupt');
      // Taken before the job was added would be as true; after is what `result()` relies on.
      return performance.now();
    }
    if (enqueued.kind === 'conflict') throw new RunIdConflictError(runId);
    if (enqueued.kind === 'busy') {
      await this.#rejectBusy(
        run.runId,
        run.agentId,
        request.conversationId ?? run.conversationId ?? '',
        unqualifyId(enqueued.holderRunId),
      );
    }
    return undefined;
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
      queues: this.#queues,
      records: this.#records,
      flagSeconds: this.config.runRetentionSeconds,
    };
  }

  run<Output>(runId: string): RunHandle<Output> {
    // No run can have an invalid id: its handle says so without touching a key.
    if (!runIdSchema.safeParse(runId).success) return new MissingRunHandle<Output>(runId);
    return this.#handle<Output>(runId, undefined);
  }

  /** `queuedAt`: when this client's submit left the run queued (see `RedisRunHandle`). */
  #handle<Output>(runId: string, queuedAt: number | undefined): RunHandle<Output> {
    return new RedisRunHandle<Output>(this.#handles, runId, queuedAt);
  }

  async schedule(schedule: ScheduleRequest): Promise<ScheduleInfo> {
    const checked = parseScheduleRequest(schedule, jsonLimitsOf(this.config));
    return boundedRequest(this.#bound, () => this.#shared.schedules.upsert(this.tenant, checked));
  }

  listSchedules(): Promise<ScheduleInfo[]> {
    return boundedRequest(this.#bound, () => this.#shared.schedules.list(this.tenant));
  }

  async removeSchedule(id: string): Promise<boolean> {
    if (!idSchema.safeParse(id).success) return false;
    return boundedRequest(this.#bound, () => this.#shared.schedules.remove(this.tenant, id));
  }

  listWorkers(): Promise<WorkerInfo[]> {
    return boundedRequest(this.#bound, () => this.#shared.registry.list());
  }

  getQueueDepths(agentIds: readonly string[]): Promise<QueueDepth[]> {
    const valid = [...new Set(agentIds)].filter((agentId) => idSchema.safeParse(agentId).success);
    return boundedRequest(this.#bound, () =>
      Promise.all(
        valid.map(async (agentId) =>
          queueDepthOf(agentId, await this.#queues.queueFor(agentId).getJobCounts(...QUEUE_DEPTH_STATES)),
        ),
      ),
    );
  }

  async ping(timeoutMs = this.#bound.timeoutMs): Promise<void> {
    await boundedRequest({ redis: this.#redis, timeoutMs }, () => this.#redis.ping());
  }

  async getRun(runId: string): Promise<RunRecord | undefined> {
    const [record] = await boundedRequest(this.#bound, async () =>
      withBuildWaits([await this.#storedRecord(runId)], this.#shared.liveWorkers),
    );
    return record && this.#named(record);
  }

  /** The record as stored (stored ids), when `runId` is valid and the run is this tenant's. */
  async #storedRecord(runId: string): Promise<RunRecord | undefined> {
    if (!runIdSchema.safeParse(runId).success) return undefined;
    const record = await this.#records.get(this.#stored(runId));
    // Keys are disjoint by construction; this keeps it so should a record ever say otherwise.
    return record?.tenant === this.tenant ? record : undefined;
  }

  /** A record with the ids its tenant gave (stored ids without the tenant qualifier). */
  #named(record: RunRecord): RunRecord {
    return namedFor(this.tenant, record);
  }

  async listRuns(query: ListRunsQuery = {}): Promise<RunList> {
    const checked = parseListRunsQuery(query);
    const tenant = checked.tenant ?? this.tenant;
    // A view never widens: a tenant's view lists its own runs only.
    if (this.tenant !== undefined && tenant !== this.tenant)
      throw new InvalidRunQueryError('tenant', `this client is scoped to tenant "${this.tenant}"`);
    const stored = { ...checked };
    if (checked.rootRunId !== undefined) stored.rootRunId = qualifyId(tenant, checked.rootRunId);
    if (checked.conversationId !== undefined)
      stored.conversationId = qualifyId(tenant, checked.conversationId);
    if (checked.scheduleId !== undefined) stored.scheduleId = qualifyId(tenant, checked.scheduleId);
    const list = await boundedRequest(this.#bound, async () => {
      const found = await listStoredRuns(this.#records, this.config.prefix, tenant, stored);
      return { ...found, runs: await withBuildWaits(found.runs, this.#shared.liveWorkers) };
    });
    return { ...list, runs: list.runs.map((record) => namedFor(tenant, record)) };
  }

  async getRunTree(rootRunId: string, options: { maxNodes?: number } = {}): Promise<RunTree | undefined> {
    const maxNodes = Math.min(
      Math.max(1, Math.trunc(options.maxNodes ?? DEFAULT_RUN_TREE_NODES)),
      MAX_RUN_TREE_NODES,
    );
    return boundedRequest(this.#bound, async () => {
      const root = await this.#storedRecord(rootRunId);
      if (!root) return undefined;
      const services = { redis: this.#redis, prefix: this.config.prefix, records: this.#records };
      // A pinned root's tree is pinned whole: its runs may wait for their build.
      const live = root.pinnedBuild === undefined ? undefined : await this.#shared.liveWorkers.list();
      return readRunTree(services, root, maxNodes, (record) =>
        this.#named(live ? withBuildWait(record, live) : record),
      );
    });
  }

  exportRun(runId: string): Promise<RunExport | undefined> {
    return boundedRequest(this.#bound, async () => {
      const record = await this.#storedRecord(runId);
      if (!record) return undefined;
      const services = {
        redis: this.#redis,
        prefix: this.config.prefix,
        records: this.#records,
        conversations: this.#conversations,
      };
      return exportStoredRun(services, record);
    });
  }

  cancel(runId: string): Promise<void> {
    return boundedRequest(this.#bound, () => this.#cancel(runId));
  }

  async #cancel(runId: string): Promise<void> {
    const record = await this.#storedRecord(runId);
    if (!record) throw new RunNotFoundError(runId);
    if (isTerminalStatus(record.status)) return;
    await cancelRunTree(this.#cancelOptions(), record);
  }

  signal(runId: string, name: string, payload: unknown, options: SignalOptions = {}): Promise<SignalReceipt> {
    return boundedRequest(this.#bound, () => {
      if (!runIdSchema.safeParse(runId).success) throw new RunNotFoundError(runId);
      return sendSignal(this.#waitSender(), this.#stored(runId), name, payload, options);
    });
  }

  approve(runId: string, callId: string, answer: ApprovalAnswer): Promise<ApprovalOutcome> {
    return boundedRequest(this.#bound, () => {
      if (!runIdSchema.safeParse(runId).success) throw new RunNotFoundError(runId);
      return answerApproval(this.#waitSender(), this.#stored(runId), callId, answer);
    });
  }

  /** What signals and approvals are sent with. */
  #waitSender() {
    return {
      redis: this.#redis,
      prefix: this.config.prefix,
      limits: jsonLimitsOf(this.config),
      records: this.#records,
      findJob: runJobFinder(this.#records, this.#queues),
    };
  }

  async getConversation(
    conversationId: string,
    options?: LoadConversationOptions,
  ): Promise<StoredConversation | undefined> {
    if (!idSchema.safeParse(conversationId).success) return undefined;
    const stored = this.#stored(conversationId);
    const conversation = await boundedRequest(this.#bound, () => this.#conversations.load(stored, options));
    if (conversation === undefined || this.tenant === undefined) return conversation;
    return { ...conversation, header: { ...conversation.header, conversationId } };
  }

  async close(): Promise<void> {
    if (!this.#owner) return;
    this.#sharedReader?.close();
    this.#shared.resultReader?.close();
    await this.#queues.close();
    await this.#redis.quit().catch(() => this.#redis.disconnect());
  }
}
