import { DelayedError, type Job, type Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { type Logger, pino } from 'pino';
import { coalesceWrites } from '../config/coalesce-writes.js';
import type { FlotillaConfig } from '../config/flotilla-config.js';
import { InvalidConfigError } from '../config/invalid-config-error.js';
import { openRedis } from '../config/open-redis.js';
import { resolveConfig } from '../config/resolve-config.js';
import { watchBullmqErrors } from '../config/watch-connection.js';
import type { AnyAgent } from '../context/agent-definition.js';
import { AgentQueues, agentQueueName } from '../jobs/agent-queues.js';
import { ENDED_JOB_RETENTION } from '../jobs/ended-job-retention.js';
import { bullmqPrefix } from '../keys.js';
import { resolveModelLimitsTable } from '../limits/fleet-model-budgets.js';
import { ModelBudgets } from '../limits/model-budgets.js';
import { createFleetMemo } from '../memo/fleet-memo.js';
import { toModelMap } from '../model/stream-model-adapter.js';
import { LiveWorkers, ServedAgents, WorkerRegistry } from '../registry/worker-registry.js';
import { WorkerResources } from '../resources/worker-resources.js';
import { RedisRunRecords } from '../runs/redis-run-records.js';
import { redactingLogOptions } from '../shared/redact-secrets.js';
import { checkPriceTable } from '../usage/budget-options.js';
import { BuildDrain } from './build-drain.js';
import { CancelListener } from './cancel-listener.js';
import { JobLeases, LeasedWorker } from './job-leases.js';
import { RunProcessor } from './run-processor.js';
import { SlotBudget } from './slot-budget.js';
import { WorkerAnnouncer } from './worker-announcer.js';
import type { CreateWorkerOptions } from './worker-options.js';

/**
 * A worker's lifecycle: `running` from creation (it starts consuming at once), `closing`
 * while {@link FlotillaWorker.close} lets active runs finish, `closed` after.
 */
export type WorkerState = 'running' | 'closing' | 'closed';

/** A running worker. */
export interface FlotillaWorker {
  readonly state: WorkerState;
  /** The resolved configuration the worker runs with. */
  readonly config: FlotillaConfig;
  /** Resolves when the worker listens for jobs and cancels. */
  waitUntilReady(): Promise<void>;
  /**
   * Stops taking jobs, waits for active runs to finish (at most `shutdownGraceMs`, then the runs
   * still executing are handed back to the queue for another worker), then closes every connection.
   */
  close(): Promise<void>;
}

/**
 * Starts a worker that consumes the queue of each agent it serves (one BullMQ queue per agent,
 * sharing the worker's `concurrency`) and executes each job as a run of that agent (see
 * `RunProcessor`); it announces itself in the worker registry while it runs. Bad jobs fail their run and are logged; the worker
 * keeps serving.
 * @throws InvalidConfigError when an option or environment variable is invalid
 * @throws InvalidModelLimitsError when an entry of `modelLimits` is invalid
 * @throws InvalidBudgetError when an entry of `prices` is invalid
 * @throws Error when two agents share an id
 * @example
 * const worker = createWorker({ agents: [Summarizer], models: { gpt: openai('gpt-4.1-mini') } });
 * process.on('SIGTERM', () => worker.close());
 */
export function createWorker(options: CreateWorkerOptions): FlotillaWorker {
  const config = resolveConfig(
    {
      prefix: options.prefix,
      queueName: options.queueName,
      workerConcurrency: options.concurrency,
      buildId: options.buildId,
      versioning: options.versioning,
      compatibleWith: options.compatibleWith === undefined ? undefined : [...options.compatibleWith],
      maxPayloadBytes: options.maxPayloadBytes,
      maxJsonDepth: options.maxJsonDepth,
      lockDurationMs: options.lockDurationMs,
      slotHoldMs: options.slotHoldMs,
      stalledIntervalMs: options.stalledIntervalMs,
      maxStalledCount: options.maxStalledCount,
      eventStreamMaxLength: options.eventStreamMaxLength,
      runRetentionSeconds: options.runRetentionSeconds,
      journalRetentionSeconds: options.journalRetentionSeconds,
      conversationRetentionSeconds: options.conversationRetentionSeconds,
      conversationChunkBytes: options.conversationChunkBytes,
      conversationRecheckMs: options.conversationRecheckMs,
      maxChildrenPerRun: options.maxChildrenPerRun,
      redisUrl: typeof options.connection === 'string' ? options.connection : undefined,
      redisTlsCaFile: options.redisTlsCaFile,
    },
    options.env,
  );
  const pinned = pinnedBuildOf(config);
  const logger =
    options.logger ?? pino({ level: config.logLevel, name: 'flotilla-worker', ...redactingLogOptions() });
  const agents = agentMap(options.agents);
  // Checked before any connection opens: a bad table fails the start, leaving nothing behind.
  const prices =
    options.prices === undefined ? undefined : checkPriceTable(options.prices, 'createWorker', 'prices');
  const connection = options.connection ?? config.redisUrl;
  // Every connection waits through an outage (commands run once Redis is back) and reports it
  // once, by role, through the logger.
  // The commands concurrent runs send in the same tick go out in one socket write (issue 15:
  // per-command writes were ~10% of the worker's CPU); corking the socket does it without the
  // pipeline object per tick that ioredis' auto-pipelining builds.
  const redis = openRedis(connection, { role: 'commands', logger, tlsCaFile: config.redisTlsCaFile });
  coalesceWrites(redis);
  const cancels = new CancelListener(
    openRedis(connection, { role: 'cancel-listener', logger, tlsCaFile: config.redisTlsCaFile }),
    config.prefix,
  );
  const records = new RedisRunRecords({
    redis,
    prefix: config.prefix,
    retention: { recordSeconds: config.runRetentionSeconds, journalSeconds: config.journalRetentionSeconds },
    eventStreamMaxLength: config.eventStreamMaxLength,
  });
  const fleetMemo = createFleetMemo({ connection: redis, prefix: config.prefix, logger });
  // Child runs (and deadline jobs) are added to their agent's queue as child jobs of their
  // caller's job. The queues get a connection of their own: BullMQ registers its ~60 scripts on
  // the connection it is given, and ioredis copies every registered script into each
  // pipeline/MULTI built on it, which made each of the runs' event and memory writes cost ~30 µs
  // of CPU more.
  const queueConnection = openRedis(connection, {
    role: 'child-queue',
    logger,
    tlsCaFile: config.redisTlsCaFile,
  });
  // A fan-out's child jobs are added in one tick: one socket write for all of them.
  coalesceWrites(queueConnection);
  const queues = new AgentQueues({
    connection: queueConnection,
    prefix: config.prefix,
    queueName: config.queueName,
    logger,
    role: 'child-queue',
    telemetry: options.telemetry,
  });
  const registry = new WorkerRegistry(redis, config.prefix);
  const resources = workerResources(options, redis, config.prefix, logger);
  const leases = new JobLeases(config.lockDurationMs);
  const modelLimits = resolveModelLimitsTable(options.modelLimits);
  const processor = new RunProcessor({
    redis,
    config,
    agents,
    models: toModelMap(options.models),
    modelBudgets: { budgets: new ModelBudgets({ redis, prefix: config.prefix }), table: modelLimits },
    ...(prices && { prices }),
    records,
    cancels,
    fleetMemo,
    queues,
    served: new ServedAgents(registry),
    resources,
    logger,
    leases,
    ...(pinned && { pinnedBuild: pinned.buildId }),
    hooks: { onRunStart: options.onRunStart, onRunEnd: options.onRunEnd },
    ...(options.abandonGraceMs !== undefined && { abandonGraceMs: options.abandonGraceMs }),
  });
  // One BullMQ Worker per agent queue; their shared (non-blocking) connection is this one, each
  // adds only its own blocking connection. They share the worker's concurrency (SlotBudget).
  const bullConnection = openRedis(connection, {
    role: 'bullmq-worker',
    logger,
    tlsCaFile: config.redisTlsCaFile,
  });
  // BullMQ's fetches and job moves of concurrent runs sent in one tick share a socket write (its
  // blocking connection is a duplicate: not corked).
  coalesceWrites(bullConnection);
  const budget = new SlotBudget(config.workerConcurrency);
  // Per agent: its queue (new runs, and every run of an unpinned fleet) and, when runs are pinned
  // to builds, the queues of its runs pinned to this build and to each compatible build.
  const newRuns = new Map<string, LeasedWorker>();
  const workers = [...agents.keys()].flatMap((agentId) =>
    [undefined, ...(pinned ? [pinned.buildId, ...pinned.compatibleWith] : [])].map((build) => {
      const worker = consume(agentQueueName(config.queueName, agentId, build), build === undefined);
      if (build === undefined) newRuns.set(agentId, worker);
      return worker;
    }),
  );
  function consume(queue: string, takesNewRuns: boolean): LeasedWorker {
    // The slot is given back by one `.then` (process never throws synchronously), not by an
    // async layer awaiting the run: two promises fewer per run.
    const run = (job: Job, token: string | undefined) =>
      processor.process(job, token).then(
        () => budget.release(worker),
        (error: unknown) => {
          budget.release(worker);
          throw error;
        },
      );
    const worker: LeasedWorker = new LeasedWorker(
      queue,
      (job, token) => {
        // A fetch in flight when the consumer paused still delivers: a newer build takes it.
        if (takesNewRuns && worker.isPaused()) return handBack(job, token);
        if (budget.take(worker)) return run(job, token);
        // Every slot is in use (this idle queue's fetch was already waiting when the last one was
        // taken): the job waits here for the next run's end (at most `slotHoldMs`) rather than
        // leave the queue for HAND_BACK_MS whatever happens (a fan-out's next root behind its
        // leaves: issue 15).
        return budget.takeWithin(worker, config.slotHoldMs).then((granted) => {
          if (!granted) return handBack(job, token);
          if (takesNewRuns && worker.isPaused()) {
            budget.release(worker);
            return handBack(job, token);
          }
          return run(job, token);
        });
      },
      {
        connection: bullConnection,
        prefix: bullmqPrefix(config.prefix),
        ...(options.telemetry && { telemetry: options.telemetry }),
        concurrency: config.workerConcurrency,
        lockDuration: config.lockDurationMs,
        stalledInterval: config.stalledIntervalMs,
        maxStalledCount: config.maxStalledCount,
        // Also for jobs added without options (a raw `queue.add`): no ended job keeps its payload.
        ...ENDED_JOB_RETENTION,
      },
    );
    worker.reportRenewalsTo(leases);
    budget.add(worker);
    watch(worker, processor, logger);
    return worker;
  }
  // A worker of an older build takes no new runs while a newer one serves the agent.
  const drain =
    pinned &&
    new BuildDrain({ buildId: pinned.buildId, workers: new LiveWorkers(registry), newRuns, logger });
  const announcer = new WorkerAnnouncer(
    registry,
    {
      agents: [...agents.keys()],
      buildId: config.buildId,
      pinned: pinned && { compatibleWith: pinned.compatibleWith, draining: () => drain?.draining ?? [] },
      concurrency: config.workerConcurrency,
      activeRuns: () => budget.active,
    },
    logger,
  );
  const listening = Promise.all([
    cancels.start(),
    resources.start(),
    // Announced once its queues are consumed: a run that waits for a worker must not be told
    // one serves it before it does.
    Promise.all(workers.map((worker) => worker.waitUntilReady()))
      .then(() => announcer.start())
      .then(() => drain?.start()),
  ]).then(() => undefined);
  listening.catch((error: unknown) =>
    logger.error(
      { err: error },
      'cancel channel subscription, resource broker or worker registry failed to start',
    ),
  );
  return new RunningWorker(
    config,
    {
      workers,
      processor,
      budget,
      graceMs: options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS,
      announcer,
      drain,
    },
    [cancels, fleetMemo, queues, resources],
    [redis, queueConnection, bullConnection],
    listening,
    logger,
  );
}

class RunningWorker implements FlotillaWorker {
  state: WorkerState = 'running';
  readonly config: FlotillaConfig;
  readonly #workers: Worker[];
  readonly #announcer: WorkerAnnouncer;
  readonly #drain: BuildDrain | undefined;
  readonly #processor: RunProcessor;
  readonly #budget: SlotBudget;
  readonly #graceMs: number;
  readonly #closables: { close(): Promise<void> }[];
  readonly #connections: Redis[];
  readonly #listening: Promise<void>;
  readonly #logger: Logger;
  #closing: Promise<void> | undefined;

  constructor(
    config: FlotillaConfig,
    parts: {
      workers: Worker[];
      processor: RunProcessor;
      budget: SlotBudget;
      graceMs: number;
      announcer: WorkerAnnouncer;
      drain: BuildDrain | undefined;
    },
    closables: { close(): Promise<void> }[],
    connections: Redis[],
    listening: Promise<void>,
    logger: Logger,
  ) {
    this.config = config;
    this.#workers = parts.workers;
    this.#processor = parts.processor;
    this.#budget = parts.budget;
    this.#graceMs = parts.graceMs;
    this.#announcer = parts.announcer;
    this.#drain = parts.drain;
    this.#closables = closables;
    this.#connections = connections;
    this.#listening = listening;
    this.#logger = logger;
  }

  async waitUntilReady(): Promise<void> {
    await Promise.all([...this.#workers.map((worker) => worker.waitUntilReady()), this.#listening]);
  }

  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    this.state = 'closing';
    // Out of the registry first: nothing should count on a worker that takes no more runs.
    await this.#announcer.close();
    // No pause or resume of a queue's consumer while they close.
    await this.#drain?.close();
    const closed = Promise.all(this.#workers.map((worker) => worker.close())).then(() => undefined);
    // Jobs held for a slot go back to their queue now, for other workers, and no more are held.
    this.#budget.abandonHeld();
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<'grace-over'>((resolve) => {
      timer = setTimeout(() => resolve('grace-over'), this.#graceMs);
    });
    if ((await Promise.race([closed, graceOver])) === 'grace-over') {
      this.#logger.warn({ graceMs: this.#graceMs }, 'shutdown grace period over: active runs handed back');
      this.#processor.handBackAll();
    }
    clearTimeout(timer);
    await closed;
    await Promise.all(this.#closables.map((closable) => closable.close()));
    await Promise.all(
      this.#connections.map((connection) => connection.quit().catch(() => connection.disconnect())),
    );
    this.state = 'closed';
    this.#logger.info('worker closed');
  }
}

/**
 * How long a job handed back unstarted waits before any worker may take it again: the delay that
 * lets another worker take it instead of this one at once. A held job no slot freed for
 * (`slotHoldMs`) is out of its queue for both.
 */
const HAND_BACK_MS = 250;

/**
 * A job no slot freed for while it was held (BullMQ's floor of 1 per idle queue fetched it while
 * every slot was in use), or fetched by a queue consumer that paused meanwhile (`BuildDrain`),
 * goes back to the queue, unstarted, for any worker with a free slot (this one too, once it has
 * one and consumes the queue).
 * @throws DelayedError BullMQ's signal that the job changed state
 */
async function handBack(job: Job, token: string | undefined): Promise<never> {
  await job.moveToDelayed(Date.now() + HAND_BACK_MS, token);
  throw new DelayedError();
}

/** How long `close()` waits for active runs before handing them back. */
const DEFAULT_SHUTDOWN_GRACE_MS = 25_000;

function watch(worker: Worker, processor: RunProcessor, logger: Logger): void {
  // Without an 'error' listener an emitted error would crash the process. Connection errors
  // (BullMQ's own blocking connection included) are reported once by the watched connections.
  watchBullmqErrors(worker, { role: 'bullmq-worker', logger });
  worker.on('failed', (job, error) => {
    processor
      .failOutside(job, error)
      .catch((cause: unknown) => logger.error({ err: cause }, 'run not ended'));
  });
}

/** The worker's resource registry, broker (heartbeat + served calls) and definitions. */
function workerResources(options: CreateWorkerOptions, redis: Redis, prefix: string, logger: Logger) {
  const { suspendedLeaseTtlMs, ...timing } = options.resourceBroker ?? {};
  return new WorkerResources({
    redis,
    prefix,
    timing,
    logger,
    ...(options.resources && { definitions: options.resources }),
    ...(suspendedLeaseTtlMs !== undefined && { suspendedLeaseTtlMs }),
  });
}

/**
 * The build runs are pinned to and the builds whose pinned runs the worker resumes too, when it
 * pins runs (`versioning: 'pinned'`).
 * @throws InvalidConfigError when it pins runs without a build id, or lists compatible builds without pinning
 */
function pinnedBuildOf(config: FlotillaConfig): { buildId: string; compatibleWith: string[] } | undefined {
  if (config.versioning !== 'pinned') {
    if (config.compatibleWith.length > 0)
      throw new InvalidConfigError(
        'FLOTILLA_COMPATIBLE_WITH',
        config.compatibleWith.join(','),
        "no compatible builds unless runs are pinned to builds (set FLOTILLA_VERSIONING=pinned, option versioning: 'pinned')",
      );
    return undefined;
  }
  if (config.buildId === undefined)
    throw new InvalidConfigError(
      'FLOTILLA_BUILD_ID',
      '',
      "a build id when runs are pinned to builds (FLOTILLA_VERSIONING=pinned): set FLOTILLA_BUILD_ID (option buildId), or use versioning: 'unpinned'",
    );
  return {
    buildId: config.buildId,
    compatibleWith: config.compatibleWith.filter((build) => build !== config.buildId),
  };
}

function agentMap(agents: CreateWorkerOptions['agents']): ReadonlyMap<string, AnyAgent> {
  const list: AnyAgent[] = Array.isArray(agents) ? [...agents] : Object.values(agents);
  const map = new Map<string, AnyAgent>();
  for (const agent of list) {
    if (map.has(agent.id))
      throw new Error(`Two agents share the id "${agent.id}"; give each agent a unique id.`);
    map.set(agent.id, agent);
  }
  return map;
}
