import { emptyUsage } from '@flotilla/ir';
import { context, type Span, trace } from '@opentelemetry/api';
import { DelayedError, type Job, UnrecoverableError, WaitingChildrenError, WaitingError } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { agentDefinitionOf } from '../agent/create-agent.js';
import { startRun } from '../agent/execute-run.js';
import { RedisOffloadedOutputs } from '../budget/offloaded-outputs.js';
import { RedisChildRunner } from '../children/redis-child-runner.js';
import { cancelRunTree } from '../client/cancel-run-tree.js';
import type { EnqueueServices } from '../client/enqueue-run.js';
import { type FlotillaConfig, jsonLimitsOf } from '../config/flotilla-config.js';
import type { AnyAgent } from '../context/agent-definition.js';
import { currentAgentContext } from '../context/context-store.js';
import { exposedDescriptors } from '../context/exposed-descriptors.js';
import type { RunJournal } from '../context/journal-entry.js';
import type { InheritedBudget, RunOutcome, RunServices, RunSuspension } from '../context/run-services.js';
import { BudgetExceededError } from '../errors/budget-errors.js';
import {
  AbortError,
  AttemptSupersededError,
  RunStalledError,
  RunTimeoutError,
  UnknownAgentError,
} from '../errors/run-errors.js';
import { serializeError } from '../errors/serialize-error.js';
import { RedisRunEventSink } from '../events/redis-run-event-sink.js';
import { ConcurrencyGate } from '../gate/concurrency-gate.js';
import { ConversationGate } from '../gate/conversation-gate.js';
import { type AgentQueues, agentQueueName, pinnedBuildOfQueue, runJobFinder } from '../jobs/agent-queues.js';
import {
  DEADLINE_JOB_NAME,
  type DeadlineJobData,
  deadlineJobDataSchema,
  deadlineJobId,
} from '../jobs/deadline-job.js';
import { keepsFailedJob } from '../jobs/ended-job-retention.js';
import { isValidId, isValidRunId } from '../jobs/id-rule.js';
import { InvalidRunInputError } from '../jobs/job-data-errors.js';
import { type DecodedRunJob, decodeRunJobData } from '../jobs/run-job-data.js';
import { tenantOfId } from '../jobs/tenant-ids.js';
import { RedisRunJournal } from '../journal/redis-run-journal.js';
import { checkJsonBounds, type JsonLimits } from '../json/json-bounds.js';
import { runKeys } from '../keys.js';
import { FleetModelBudgets } from '../limits/fleet-model-budgets.js';
import { ModelBudgets } from '../limits/model-budgets.js';
import type { ResolvedModelLimits } from '../limits/model-limits.js';
import type { FleetMemo } from '../memo/fleet-memo.js';
import { RedisRunMemoryStore } from '../memory/redis-run-memory-store.js';
import type { ModelAdapter } from '../model/model-adapter.js';
import type { ServedAgents } from '../registry/worker-registry.js';
import { RunResources } from '../resources/run-resources.js';
import type { WorkerResources } from '../resources/worker-resources.js';
import type { PreloadedReads, RedisRunRecords, RunTotals } from '../runs/redis-run-records.js';
import { runHasEnded } from '../runs/run-has-ended.js';
import type { RunEnding } from '../runs/run-script-args.js';
import { isTerminalStatus } from '../runs/run-status.js';
import { SCHEDULE_JOB_NAME } from '../schedules/schedule-job.js';
import { AnyKeyExistsBatch } from '../shared/any-key-exists.js';
import { SETTLED } from '../shared/settled.js';
import { type InSpanOptions, inSpan, SpanAttribute } from '../shared/tracing.js';
import type { ConversationStore } from '../store/conversation-store.js';
import { type LatestRead, RedisConversationStore } from '../store/redis-conversation-store.js';
import type { PriceTable } from '../usage/budget-options.js';
import { RedisTreeUsage } from '../usage/redis-tree-usage.js';
import { RedisRunWaits } from '../waits/redis-run-waits.js';
import { type TracedAttempt, traceAttempt } from './attempt-trace.js';
import type { CancelListener, RunCancel } from './cancel-listener.js';
import { type CapHold, ConcurrencyCaps } from './concurrency-caps.js';
import { ConversationWriters, conversationOf, preloadedConversations } from './conversation-writers.js';
import { ExecutionFence, fenceWrites } from './execution-fence.js';
import { fireSchedule } from './fire-schedule.js';
import { callPathOf } from './job-call-path.js';
import type { JobLeases } from './job-leases.js';
import { parkUntilWoken } from './park-until-woken.js';
import { hasAttemptsLeft, retryDelayMs } from './root-run-retry.js';
import { RunAttempt } from './run-attempt.js';
import { RunEndCapturingSink } from './run-end-capturing-sink.js';
import { HandBack, RunHandedBackError, superviseExecution } from './supervise-execution.js';
import { SuspendedRunEvents } from './suspended-run-events.js';
import { UnfinishedTurnKeeper } from './unfinished-turn-keeper.js';
import type { WorkerRunEndInfo, WorkerRunHooks } from './worker-run-hooks.js';

/** What a {@link RunProcessor} needs from its worker. */
export interface RunProcessorDependencies {
  redis: Redis;
  config: FlotillaConfig;
  agents: ReadonlyMap<string, AnyAgent>;
  models: ReadonlyMap<string, ModelAdapter>;
  /** The fleet-wide model budgets and the worker's `modelLimits` table. @default no limits but the adapters' own */
  modelBudgets?: { budgets: ModelBudgets; table: ReadonlyMap<string, ResolvedModelLimits> };
  /** The worker's price table (`createWorker({ prices })`), checked. @default none */
  prices?: PriceTable;
  records: RedisRunRecords;
  cancels: CancelListener;
  /** Shared by every run of the worker (MCP `tools/list` and other fleet-wide values). */
  fleetMemo: FleetMemo;
  /** The agent queues: child runs go to their agent's, as child jobs of their caller's job. */
  queues: AgentQueues;
  /** Whether a live worker serves an agent (a child no worker serves says so on its record). */
  served?: ServedAgents;
  /** The worker's resource registry, broker and definitions; each execution opens its view. */
  resources: WorkerResources;
  logger: Logger;
  /** The worker's lifecycle hooks. @default none */
  hooks?: WorkerRunHooks;
  /**
   * How long a cancelled or timed-out execution may take to end by itself before the worker
   * abandons it (ends the run, frees the slot, refuses its later writes). @default 500
   */
  abandonGraceMs?: number;
  /** The worker's job locks: an attempt whose lock is about to lapse stops. @default not watched */
  leases?: JobLeases;
  /**
   * The worker's build when it pins runs (`versioning: 'pinned'`): a root run it takes first from
   * its agent's queue is pinned to it and moved to its build queue. @default runs are not pinned
   */
  pinnedBuild?: string;
}

/**
 * The journal, marking the attempt's span with whether it replays one (a retry, a takeover
 * after a crash, a resume after child runs) or starts fresh.
 */
function markingReplays(journal: RunJournal): RunJournal {
  // Built inside the run span (`#services`): the span active at the load is the same one.
  return {
    // One `.then`, not an async function awaiting (two promises fewer per execution).
    load: () =>
      journal.load().then((entries) => {
        // A run suspended on its first step has no entry yet, but it resumes all the same.
        const replayed = entries.size > 0 || (entries.pendingSteps?.size ?? 0) > 0;
        trace.getActiveSpan()?.setAttribute(SpanAttribute.replayed, replayed);
        return entries;
      }),
    record: (position, entry, options) => journal.record(position, entry, options),
    ...(journal.settle && { settle: () => journal.settle?.() ?? Promise.resolve() }),
  };
}

/** What one job's executions share: its decoded data, event sink and memory store. */
interface JobRun {
  job: Job;
  token: string | undefined;
  runId: string;
  /** This delivery of the job: its token fences every write to the run's keys and holds the conversation's lease. */
  attempt: RunAttempt;
  /** Turns `promptChat` has not stored yet; stored closed if the run ends failed or cancelled. */
  turns: UnfinishedTurnKeeper;
  agent: AnyAgent;
  decoded: DecodedRunJob;
  sink: RunEndCapturingSink;
  memory: RedisRunMemoryStore;
  /** The run's cancel: aborted by a cancel, the deadline or a hand-back. */
  cancel: RunCancel;
  /** The run's deadline (epoch ms), see {@link deadlineOf}. */
  deadline: number | undefined;
  logger: Logger;
  /**
   * The record's totals (for `finish`) and count of wake-ups (for parking, see
   * `park-until-woken.ts`) as the latest start of this job read them; `firstExecution`: its first
   * start was the run's first (the stream holds only this job's events, for `finish`).
   */
  carried: {
    totals: RunTotals;
    wakes: number;
    preloaded?: PreloadedReads | undefined;
    firstExecution?: boolean;
  };
}

/**
 * Most fields of the journal, and of the root invocation's memory, the start script sends back
 * (a larger hash is read after it, as before: a large reply built in Lua is slower).
 */
const START_PRELOAD_MAX_FIELDS = 64;

/**
 * Executes one run per BullMQ job: marks it running, checks the job, builds Redis
 * {@link RunServices}, calls `executeRun`, and ends the run record with its outcome. Bad
 * input (unknown agent, oversized or non-JSON input) and agent failures end the run as
 * `failed` with a typed, serialized error; nothing thrown here stops the worker. A failed root
 * run whose agent has a `retry` policy is attempted again (see `root-run-retry.ts`).
 *
 * A run whose execution suspends on child runs is moved to waiting-children (its slot is
 * released; BullMQ re-queues it when the children end and any worker replays it), or replayed
 * at once when its children already ended. A failed child run with attempts left (its agent's
 * `retry`) is left to BullMQ's retry instead of ending its record.
 */
export class RunProcessor {
  readonly #deps: RunProcessorDependencies;
  /** Hand-back switches of the executions in progress, by run id. */
  readonly #handBacks = new Map<string, HandBack>();
  /** One writer per conversation: the gate runs with a conversationId pass before they execute. */
  readonly #writers: ConversationWriters;
  /**
   * By attempt token: the conversation as the attempt read it when it entered the gate, for its
   * first execution's load (taken by `#services`; dropped when the attempt ends).
   */
  readonly #enteredReads = new Map<string, { conversationId: string; read: LatestRead }>();
  /** What runs that suspended here wrote, for their resumed execution's finish (see the class). */
  readonly #suspendedEvents = new SuspendedRunEvents();
  /** The fleet-wide model budgets (every run's model calls draw on them). */
  readonly #modelBudgets: { budgets: ModelBudgets; table: ReadonlyMap<string, ResolvedModelLimits> };
  /** Concurrency caps: a run of a capped agent executes only with a place under its cap. */
  readonly #caps: ConcurrencyCaps;
  /** What a schedule's firing needs to enqueue its run. */
  readonly #enqueueServices: EnqueueServices;
  /** The run services that are the same for every run (built once, not per execution). */
  readonly #shared: {
    outputs: RedisOffloadedOutputs;
    /** One object for every run: the event sink caches its bounds by limits object. */
    limits: JsonLimits;
    conversations: RedisConversationStore;
  };

  constructor(dependencies: RunProcessorDependencies) {
    this.#deps = dependencies;
    const { redis, config, queues, records } = dependencies;
    const findJob = runJobFinder(records, queues);
    const gate = new ConversationGate({
      redis,
      prefix: config.prefix,
      findJob,
      hasEnded: runHasEnded(records),
    });
    this.#enqueueServices = { records, gate, queues, served: dependencies.served };
    this.#modelBudgets = dependencies.modelBudgets ?? {
      budgets: new ModelBudgets({ redis, prefix: config.prefix }),
      table: new Map(),
    };
    this.#caps = new ConcurrencyCaps({
      gate: new ConcurrencyGate({
        redis,
        prefix: config.prefix,
        findJob,
        // A dead worker's place lapses about when its runs' locks do (they are taken over then).
        leaseMs: Math.max(1000, config.lockDurationMs * 2),
      }),
      records,
      recheckMs: config.conversationRecheckMs,
      limits: jsonLimitsOf(config),
    });
    this.#shared = {
      outputs: new RedisOffloadedOutputs({
        redis,
        prefix: config.prefix,
        retentionSeconds: config.conversationRetentionSeconds,
      }),
      limits: jsonLimitsOf(config),
      // Stateless but for the compacted starts it remembers: one per worker, so every run's load
      // finds what an earlier run on its conversation learned.
      conversations: new RedisConversationStore({
        redis,
        prefix: config.prefix,
        retentionSeconds: config.conversationRetentionSeconds,
        chunkBytes: config.conversationChunkBytes,
      }),
    };
    this.#writers = new ConversationWriters({
      gate,
      records,
      recheckMs: config.conversationRecheckMs,
      conversations: this.#shared.conversations,
      queueName: config.queueName,
    });
  }

  /**
   * The BullMQ processor. Throws (so BullMQ marks the job failed) when the run failed. Not an
   * async function: a run admitted without a gate (no pinning, conversation or cap: most runs)
   * goes straight on, without a promise of its own and the await on it.
   */
  process(job: Job, token?: string): Promise<void> {
    // Every failure is a rejection, never a synchronous throw (a caller may not await at once).
    try {
      return this.#dispatch(job, token);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  #dispatch(job: Job, token: string | undefined): Promise<void> {
    if (job.name === DEADLINE_JOB_NAME) return this.#expire(job);
    if (job.name === SCHEDULE_JOB_NAME) return fireSchedule(job, this.#enqueueServices, this.#deps.logger);
    const runId = job.id ?? '';
    if (!isValidRunId(job.id)) {
      // No record can be keyed by it (a 5 MB id would make 5 MB key names): the job fails alone.
      this.#deps.logger.error({ jobId: runId.slice(0, 240) }, 'job id is not a valid run id; job failed');
      return Promise.reject(
        new UnrecoverableError('The job id is not a valid run id; submit runs with createClient().submit.'),
      );
    }
    // An invalid agent id (job name) fails the run below; the record must not hold it.
    const agentId = isValidId(job.name) ? job.name : '';
    const logger = this.#deps.logger.child({ runId, agentId, jobId: job.id });
    if (this.#deps.pinnedBuild !== undefined) return this.#processPinned(job, token, logger);
    return this.#processRun(job, token, logger);
  }

  /** A run of a worker that pins runs: moved to its build's queue first, or processed here. */
  async #processPinned(job: Job, token: string | undefined, logger: Logger): Promise<void> {
    if (await this.#movedToBuildQueue(job, logger)) return;
    await this.#processRun(job, token, logger);
  }

  /** Admits the run (conversation, cap) and processes it. Most runs have neither: no awaits for those. */
  #processRun(job: Job, token: string | undefined, logger: Logger): Promise<void> {
    const attempt = new RunAttempt(job.id ?? '');
    // A synchronous throw here is a rejection: #processPinned is async, process() catches.
    const admitting = this.#admit({ job, token, attempt: attempt.token, logger });
    // Nothing to remember or release: no entered read (only a gate sets one), no cap.
    if (admitting === ADMITTED) return this.#processAdmitted(job, token, attempt, logger);
    return this.#processGated(
      job,
      token,
      attempt,
      logger,
      admitting as Exclude<typeof admitting, typeof ADMITTED>,
    );
  }

  async #processGated(
    job: Job,
    token: string | undefined,
    attempt: RunAttempt,
    logger: Logger,
    admitting: Promise<'ended' | { cap: CapHold | undefined }>,
  ): Promise<void> {
    const admitted = await admitting;
    if (admitted === 'ended') return;
    try {
      await this.#processAdmitted(job, token, attempt, logger);
    } finally {
      this.#enteredReads.delete(attempt.token);
      // Another attempt owns the run (and its place) once this one is superseded.
      if (admitted.cap && !attempt.superseded) await admitted.cap.release();
    }
  }

  /**
   * Worker versioning: a root run taken from its agent's queue by a worker that pins runs is
   * pinned to that worker's build (or keeps the build it was pinned to first, after a crash
   * between the pin and the move) and moved to the build's queue, where it executes and resumes
   * from then on; its job in the agent's queue completes without starting the run. The added job
   * keeps the original's options and timestamp (its agent's `timeoutMs` counts from it), and its
   * id: adding it again is a no-op. Child runs are added to their build's queue by their parent.
   */
  async #movedToBuildQueue(job: Job, logger: Logger): Promise<boolean> {
    const { pinnedBuild, config, records, queues, agents } = this.#deps;
    if (pinnedBuild === undefined || job.parentKey !== undefined || !agents.has(job.name)) return false;
    if (job.queueName !== agentQueueName(config.queueName, job.name)) return false;
    const runId = job.id ?? '';
    const build = await records.pin(runId, pinnedBuild);
    if (build === undefined) return false;
    const {
      jobId: _jobId,
      parent: _parent,
      delay: _delay,
      deduplication: _deduplication,
      ...options
    } = job.opts;
    await queues.queueFor(job.name, build).add(job.name, job.data, {
      ...options,
      jobId: runId,
      timestamp: job.timestamp,
    });
    logger.info({ pinnedBuild: build }, 'run pinned to a build: moved to its build queue');
    return true;
  }

  async #processAdmitted(job: Job, token: string | undefined, attempt: RunAttempt, logger: Logger) {
    const runId = job.id ?? '';
    const agentId = isValidId(job.name) ? job.name : '';
    // The run's own cancel flag is read by the start script; a child's parent's and root's flags
    // in the same round trip: Redis runs both in the order sent, so the read still sees every
    // flag set before the run was marked running.
    const starting = this.#deps.records.start({
      runId,
      agentId,
      attempt: attempt.token,
      buildId: this.#deps.config.buildId,
      preload: { callPath: callPathOf(job), maxFields: START_PRELOAD_MAX_FIELDS },
    });
    const ancestorFlags = this.#ancestorCancelFlagSet(job.data);
    // A root run has no ancestor flag to read: no `Promise.all` (its promises) for it.
    const [start, treeCancelled] =
      ancestorFlags === false ? [await starting, false] : await Promise.all([starting, ancestorFlags]);
    if (!start.started) {
      logger.info({ status: start.status }, 'run already ended; job skipped');
      await this.#writers.release(job);
      return;
    }
    logger.info({ attempt: start.attempt }, 'run started');
    this.#callHook(logger, () =>
      this.#deps.hooks?.onRunStart?.({ runId, agentId, attempt: start.attempt, tenant: tenantOfId(runId) }),
    );
    const cancel = this.#deps.cancels.register(runId);
    const releaseLease = this.#deps.leases?.hold(job, token, () =>
      attempt.supersede(new AttemptSupersededError(runId, 'further writes (its job lock lapsed)')),
    );
    // One span per attempt (BullMQ's `process` span, when telemetry is on, is its parent and
    // carries the trace from the submit or the calling run's job).
    const attributes = {
      [SpanAttribute.runId]: runId,
      [SpanAttribute.agentId]: agentId,
      [SpanAttribute.attempt]: start.attempt,
    };
    // The context the run span is made in; the traced attempt is built only for a recording span.
    const parent = context.active();
    try {
      const cancelled = start.cancelled || treeCancelled;
      const state = {
        cancel,
        cancelled,
        carried: {
          totals: start.totals,
          wakes: start.wakes,
          preloaded: start.preloaded,
          firstExecution: start.firstExecution,
        },
      };
      await inSpan(
        `flotilla.run ${agentId}`,
        attributes,
        // Without a recording span there is no trace mark to leave or clear: no wrapper for it.
        (span) =>
          span.isRecording()
            ? this.#tracedExecute(
                span,
                { runId, agentId, attempt: start.attempt, token: attempt.token, job, parent },
                logger,
                () => this.#execute(job, token, attempt, state, logger),
              )
            : this.#execute(job, token, attempt, state, logger),
        RUN_SPAN_OPTIONS,
      );
    } catch (error) {
      if (!attempt.superseded && !AttemptSupersededError.is(error)) throw error;
      // The job and the run belong to the newer attempt: BullMQ must not move or fail the job
      // (WaitingError: it leaves it as it is; its lock holds the newer attempt's token).
      logger.warn({ err: attempt.reason ?? error }, 'attempt superseded: it stops, a newer one owns the run');
      throw new WaitingError();
    } finally {
      releaseLease?.();
      this.#deps.cancels.release(runId, cancel);
    }
  }

  /** `execute` under a recorded run span, its trace mark left on the record meanwhile. */
  async #tracedExecute(
    span: Span,
    traced: TracedAttempt,
    logger: Logger,
    execute: () => Promise<void>,
  ): Promise<void> {
    // A takeover shows the attempt that died before it (its run span was never exported).
    const untrace = await traceAttempt(this.#deps.records, span, traced, logger);
    try {
      await execute();
    } finally {
      await untrace();
    }
  }

  /**
   * A root run on a conversation executes only when first in line (its attempt then holds the
   * conversation's lease), and a run of a capped agent only with a place under its cap
   * (`concurrency-caps.ts`); otherwise its job is parked, with its deadline watched by a
   * deadline job while it waits.
   * @throws DelayedError when the job was parked
   */
  #admit(at: {
    job: Job;
    token: string | undefined;
    attempt: string;
    logger: Logger;
  }): typeof ADMITTED | Promise<'ended' | { cap: CapHold | undefined }> {
    const conversation = conversationOf(at.job);
    const agent = this.#deps.agents.get(at.job.name);
    // An unknown agent fails at once below, without touching the conversation or a cap.
    if (!agent) return ADMITTED;
    if (!conversation && !agentDefinitionOf(agent).concurrency) return ADMITTED;
    return this.#admitAtGates(at, agent, conversation);
  }

  async #admitAtGates(
    at: { job: Job; token: string | undefined; attempt: string; logger: Logger },
    agent: AnyAgent,
    conversation: ReturnType<typeof conversationOf>,
  ): Promise<'ended' | { cap: CapHold | undefined }> {
    const onParked = async () => {
      const raw = (at.job.data as { deadline?: unknown } | undefined)?.deadline;
      const deadline = deadlineOf(at.job, agent, {
        deadline: Number.isSafeInteger(raw) ? (raw as number) : undefined,
      } as DecodedRunJob);
      if (deadline !== undefined) await this.#addDeadlineJob(at.job, deadline);
    };
    const entered = conversation && (await this.#writers.admit(at, conversation, onParked));
    if (entered === 'ended') return 'ended';
    const cap = await this.#caps.admit(at, agent, onParked);
    if (cap === 'ended') {
      await this.#writers.release(at.job);
      return 'ended';
    }
    if (conversation && entered?.read)
      this.#enteredReads.set(at.attempt, { conversationId: conversation.conversationId, read: entered.read });
    return { cap };
  }

  /**
   * Abandons every execution in progress and moves its job back to wait, for another worker to
   * replay (the end of a shutdown grace period). Their records stay `running`.
   */
  handBackAll(): void {
    for (const [runId, handBack] of this.#handBacks) handBack.fire(new RunHandedBackError(runId));
  }

  /**
   * Ends a run whose job BullMQ failed outside the processor (stalled too often). Failures
   * BullMQ will retry, and runs already ended by the processor, are left alone.
   */
  async failOutside(job: Job | undefined, error: Error): Promise<void> {
    if (!job?.id || job.name === DEADLINE_JOB_NAME || job.name === SCHEDULE_JOB_NAME) return;
    if (!job?.id || !isValidRunId(job.id)) return;
    const stalled = /stalled/i.test(error.message);
    if (!stalled && job.attemptsMade < (job.opts.attempts ?? 1)) return;
    const reason = stalled ? new RunStalledError(job.id, error.message) : error;
    const ended = await this.#deps.records.finish(job.id, callPathOf(job), {
      status: 'failed',
      error: serializeError(reason),
      usage: emptyUsage(),
      modelCalls: 0,
    });
    await this.#writers.release(job);
    if (!ended) return;
    const logger = this.#deps.logger.child({ runId: job.id, agentId: job.name, jobId: job.id });
    logger.error({ err: reason }, 'run failed');
    await this.#reportEnd(job.id, logger);
  }

  async #execute(
    job: Job,
    token: string | undefined,
    attempt: RunAttempt,
    state: { cancel: RunCancel; cancelled: boolean; carried: JobRun['carried'] },
    logger: Logger,
  ) {
    const { cancel } = state;
    const runId = job.id ?? '';
    const { redis, config } = this.#deps;
    const sink = new RunEndCapturingSink(
      new RedisRunEventSink({
        redis,
        prefix: config.prefix,
        runId,
        attempt: attempt.token,
        onSuperseded: () => attempt.supersede(new AttemptSupersededError(runId, 'its events')),
        maxLength: config.eventStreamMaxLength,
        onError: (error) => logger.warn({ err: error }, 'run events could not be written'),
        limits: this.#shared.limits,
        onOmitted: (info) =>
          logger.warn(info, 'run event payload left out (too deep, too large or not JSON)'),
        written: this.#suspendedEvents.take(runId),
      }),
    );
    const memory = new RedisRunMemoryStore({
      redis,
      prefix: config.prefix,
      runId,
      attempt: attempt.token,
      beforeWrite: () => sink.batch.settle(),
    });
    let ending: RunEnding;
    const turns = new UnfinishedTurnKeeper();
    /** Set once the job is known good: bad input is not worth another attempt. */
    let root: { agent: AnyAgent; decoded: DecodedRunJob } | undefined;
    try {
      if (!isValidId(job.name)) throw new InvalidRunInputError('the job name is not a valid agent id');
      const agent = this.#deps.agents.get(job.name);
      if (!agent) throw new UnknownAgentError(job.name, [...this.#deps.agents.keys()]);
      const decoded = decodeRunJobData(job.data, this.#shared.limits);
      if (decoded.child === undefined) root = { agent, decoded };
      if (state.cancelled) {
        const cancelled = new AbortError(`run ${runId} was cancelled before it started`);
        cancel.abort(cancelled);
        throw cancelled;
      }
      const deadline = deadlineOf(job, agent, decoded);
      if (deadline !== undefined && Date.now() >= deadline) {
        const timedOut = timeoutError(job, deadline);
        cancel.abort(timedOut);
        throw timedOut;
      }
      const { carried } = state;
      // One literal, not spreads of two (their objects, and a copy, per run).
      const run: JobRun = {
        job,
        token,
        runId,
        attempt,
        agent,
        decoded,
        sink,
        memory,
        cancel,
        deadline,
        logger,
        carried,
        turns,
      };
      // Read by the start before the execution looks at anything: a wake-up after it is seen
      // when parking.
      const wakesBefore = run.carried.wakes;
      const outcome = await this.#executeWithResources(run);
      // Most executions do not suspend: no layer (and promise) for the replay loop then.
      const ended = outcome.suspended
        ? await this.#resumeUntilEnded(run, outcome, wakesBefore)
        : this.#succeeded(outcome);
      if (ended === 'left') return;
      ending = ended;
    } catch (error) {
      if (
        error instanceof WaitingChildrenError ||
        error instanceof DelayedError ||
        attempt.superseded ||
        AttemptSupersededError.is(error)
      )
        throw error;
      if (RunHandedBackError.is(error)) {
        await sink.write();
        await job.moveToWait(token);
        logger.warn('run handed back to the queue: the worker is shutting down');
        throw new WaitingError();
      }
      // A deadline ends the run failed with its RunTimeoutError, whatever the code threw then.
      const timedOut: unknown = RunTimeoutError.is(cancel.reason) ? cancel.reason : undefined;
      ending = {
        status: cancel.aborted && !timedOut ? 'cancelled' : 'failed',
        error: serializeError(timedOut ?? error),
        usage: sink.runEnd?.usage ?? emptyUsage(),
        modelCalls: sink.runEnd?.modelCalls ?? 0,
      };
    }
    // Past its deadline, or over its tree's usage budget, a run is not attempted again.
    const retriable = ending.status === 'failed' && !FINAL_ERRORS.has(ending.error?.name ?? '');
    // A run that ends here hands its unwritten events to the finish script (`#end`); one that may
    // be attempted again writes them first.
    if (retriable && (willRetry(job) || root)) {
      await sink.write();
      // Handing the job to a retry writes no run key, so no script fences it: ask the record.
      if (!(await this.#deps.records.ownedBy(runId, attempt.token)))
        throw new AttemptSupersededError(runId, 'a retry');
    }
    if (retriable && willRetry(job)) {
      // Memory and journal stay: the next attempt replays from them.
      logger.warn(
        { err: ending.error, attemptsMade: job.attemptsMade },
        'run attempt failed; BullMQ retries it',
      );
      throw new Error(`${ending.error?.name}: ${ending.error?.message}`);
    }
    if (retriable && root) await this.#retryRoot({ job, token, logger }, root, ending);
    // Ended for good: the turn it was in is stored closed before the next run on its conversation.
    if (ending.status !== 'succeeded') await this.#writers.closeUnfinishedTurns(job, turns, logger);
    // The run's end, in this layer (not an async method of its own: two promises per run).
    const { records } = this.#deps;
    // The finish script also deletes the memory and gives the children set its retention (even
    // when a cancel ended the run first): only once the record ended, as a retry needs the memory.
    // The events not written yet go ahead of run-end in the finish script.
    // Knowing the events it wrote (and their ids), the finish script compacts the stream itself.
    // So do the journal records not written yet (the last model turn's): one script for the end.
    const pending = await sink.drain();
    const finishing = records.finish(
      runId,
      callPathOf(job),
      ending,
      state.carried.totals,
      attempt.token,
      pending.events,
      sink.written(),
      true,
      pending.records,
      state.carried.firstExecution,
    );
    // Whoever ended the run (this worker, a cancel), the next run on its conversation goes now:
    // its leave is sent in the same tick as the finish, so Redis runs it just after (one round
    // trip); fenced by this attempt, it leaves nothing when a newer attempt owns the run.
    // No conversation (most runs): no `Promise.all` (three promises) around the finish alone.
    const ended = conversationOf(job)
      ? (await Promise.all([finishing, this.#writers.release(job, attempt.token)]))[0]
      : await finishing;
    this.#log(logger, ending);
    if (ended && this.#deps.hooks?.onRunEnd) await this.#reportEnd(runId, logger);
    // Ended for good: BullMQ must not retry it (a retry would find the record ended anyway).
    if (ending.status !== 'succeeded') {
      await this.#trimKeptJob(job, logger);
      throw new UnrecoverableError(`${ending.error?.name}: ${ending.error?.message}`);
    }
  }

  /**
   * Gives a failed root run another attempt when its agent's `retry` allows it (see
   * `root-run-retry.ts`): the job waits in delayed for the backoff, journal and memory stay.
   * Returns when no attempt is left.
   * @throws DelayedError when the job was moved to delayed (BullMQ's signal)
   */
  async #retryRoot(
    at: { job: Job; token: string | undefined; logger: Logger },
    root: { agent: AnyAgent; decoded: DecodedRunJob },
    ending: RunEnding,
  ): Promise<void> {
    const policy = agentDefinitionOf(root.agent).retry;
    const failures = (root.decoded.failedAttempts ?? 0) + 1;
    if (!policy || !hasAttemptsLeft(policy, failures)) return;
    const delayMs = retryDelayMs(policy, failures);
    await at.job.updateData({ ...(at.job.data as object), failedAttempts: failures });
    await at.job.moveToDelayed(Date.now() + delayMs, at.token);
    at.logger.warn(
      { err: ending.error, failedAttempts: failures, attempts: policy.attempts, delayMs },
      'run attempt failed; retried after the backoff',
    );
    throw new DelayedError();
  }

  /** The ending of an execution that did not suspend. */
  #succeeded(outcome: RunOutcome): RunEnding {
    // The record stores the output: bounded like every other value (lenient: a Date is its text).
    checkJsonBounds(outcome.output, 'the run output', this.#shared.limits, { lenient: true });
    return {
      status: 'succeeded',
      output: outcome.output,
      usage: outcome.usage,
      modelCalls: outcome.modelCalls,
    };
  }

  /**
   * After an execution suspended: the run waits (its job moved to waiting-children or parked),
   * or is replayed at once while what it waits for is already done, until an execution does not
   * suspend. Returns how the run ended, or `left` when another party (a cancel) ended it.
   * @throws WaitingChildrenError when the job moved to waiting-children (BullMQ's signal)
   * @throws DelayedError when the job was parked
   */
  async #resumeUntilEnded(
    run: JobRun,
    first: RunOutcome,
    firstWakesBefore: number,
  ): Promise<RunEnding | 'left'> {
    const { records } = this.#deps;
    let outcome = first;
    let wakesBefore = firstWakesBefore;
    while (outcome.suspended) {
      const suspension = keepingConversation(outcome.suspended, run.decoded.conversationId);
      const suspended = { ...outcome, suspended: suspension };
      // What the execution wrote last (its run-suspended event) goes in the suspension's script.
      const writes = await run.sink.batch.handOver();
      if (!(await records.suspend(run.runId, suspended, run.carried.totals, run.attempt.token, writes)))
        return 'left';
      if (suspension.pendingChildren.length > 0) {
        if (await this.#moveToWaitingChildren(run, outcome))
          this.#leaveSuspended(run, new WaitingChildrenError());
      } else if (await this.#park(run, suspension, wakesBefore))
        this.#leaveSuspended(run, new DelayedError());
      const { runId, attempt } = run;
      const resumed = await records.start({
        runId,
        agentId: run.job.name,
        attempt: attempt.token,
        continuing: true,
        preload: { callPath: callPathOf(run.job), maxFields: START_PRELOAD_MAX_FIELDS },
      });
      if (!resumed.started) return 'left';
      // Mutated, not replaced: the job's ending reads the same object (`#execute`).
      run.carried.totals = resumed.totals;
      run.carried.wakes = resumed.wakes;
      run.carried.preloaded = resumed.preloaded;
      // A resumed run's stream holds events of its earlier executions: the finish checks it.
      run.carried.firstExecution = false;
      wakesBefore = run.carried.wakes;
      outcome = await this.#executeWithResources(run);
    }
    return this.#succeeded(outcome);
  }

  /**
   * The job leaves the worker while its run waits (`signal`: BullMQ's error for where it went);
   * the events the run wrote are kept for its resumed execution, when this worker takes it.
   */
  #leaveSuspended(run: JobRun, signal: WaitingChildrenError | DelayedError): never {
    this.#suspendedEvents.keep(run.runId, run.sink.written());
    throw signal;
  }

  /**
   * One execution with the worker's resources: inherited descriptors resolved (and
   * `defineResource` instances built) before the handler runs; a suspended execution keeps its
   * leases for a replay here (until their TTL), any other ending releases them. No await when
   * there is nothing to build (most runs).
   */
  #executeWithResources(run: JobRun): Promise<RunOutcome> {
    const opening = this.#deps.resources.openRun(
      run.runId,
      run.decoded.resources,
      () => currentAgentContext()?.signal,
    );
    return opening instanceof RunResources
      ? this.#executeWith(run, opening)
      : opening.then((resources) => this.#executeWith(run, resources));
  }

  /**
   * {@link #executeWithResources} once they are open: the supervised execution, its resources
   * ended (or suspended) and its hand-back dropped in the supervision's own callbacks, so the
   * execution costs no async layer of its own.
   */
  #executeWith(run: JobRun, resources: RunResources): Promise<RunOutcome> {
    const fence = new ExecutionFence(run.runId, run.attempt);
    const handBack = new HandBack();
    let unlinkAttempt: (() => void) | undefined;
    const unlink = () => {
      unlinkAttempt?.();
      this.#handBacks.delete(run.runId);
    };
    try {
      run.turns.reset();
      // What the start read after its fence is used by this execution only.
      const preloaded = run.carried.preloaded;
      run.carried.preloaded = undefined;
      const services = this.#services(run, preloaded?.journal, resources, fence);
      this.#handBacks.set(run.runId, handBack);
      // Superseded: stopped as at once as a hand-back, but its job is left alone. A listener, not
      // `AbortSignal.any` (a dependent signal per execution, ~1% of a worker's CPU per run).
      unlinkAttempt = run.attempt.onSuperseded((reason) => handBack.fire(reason));
      // The root invocation's memory is read alongside the journal the execution loads first
      // (or was, by the start).
      if (preloaded?.memory) run.memory.preload(callPathOf(run.job), preloaded.memory);
      else run.memory.prefetch(callPathOf(run.job));
      const execution = { agent: run.agent, input: run.decoded.input, services };
      return superviseExecution((settle) => startRun(execution, settle), {
        cancel: run.cancel,
        deadline: run.deadline,
        onDeadline: () => timeoutError(run.job, run.deadline ?? Date.now()),
        graceMs: this.#deps.abandonGraceMs ?? DEFAULT_ABANDON_GRACE_MS,
        fence,
        handBack,
        settle: {
          value: (outcome) => {
            unlink();
            return this.#afterExecution(outcome, resources);
          },
          error: (error) => {
            unlink();
            return this.#afterFailedExecution(run, fence, resources, error);
          },
        },
      });
    } catch (error) {
      unlink();
      return this.#afterFailedExecution(run, fence, resources, error) ?? Promise.reject(error);
    }
  }

  /** A suspended execution keeps its resources; any other ending releases them. */
  #afterExecution(outcome: RunOutcome, resources: RunResources): RunOutcome | Promise<RunOutcome> {
    if (outcome.suspended) {
      resources.suspend();
      return outcome;
    }
    const ending = resources.end();
    return ending === SETTLED ? outcome : ending.then(() => outcome);
  }

  /**
   * A failed execution's resources end: a promise rejecting with `error` once they did, or
   * `undefined` when there is nothing to wait for (an abandoned execution's are not waited for).
   */
  #afterFailedExecution(
    run: JobRun,
    fence: ExecutionFence,
    resources: RunResources,
    error: unknown,
  ): Promise<never> | undefined {
    // An abandoned execution may still hold its resources: end them without waiting.
    if (fence.abandoned) {
      // A superseded attempt is logged once, where it stops (`process`).
      if (!run.attempt.superseded)
        run.logger.warn({ err: error }, 'execution ignored its abort signal; abandoned, its writes refused');
      resources.end().catch((cause: unknown) => run.logger.warn({ err: cause }, 'resources not ended'));
      return undefined;
    }
    const ending = resources.end();
    return ending === SETTLED ? undefined : ending.then(() => Promise.reject(error));
  }

  /**
   * Parks a run that waits on durable waits only (`park-until-woken.ts`); `false` when one is
   * due or was woken already, so the run replays right away.
   */
  async #park(run: JobRun, suspension: RunSuspension, wakesBefore: number): Promise<boolean> {
    await run.sink.write();
    // While it waits no worker watches its deadline: a delayed job does.
    if (run.deadline !== undefined) await this.#addDeadlineJob(run.job, run.deadline);
    const { job, token } = run;
    const parked = await parkUntilWoken({ job, token, records: this.#deps.records, suspension, wakesBefore });
    if (parked)
      run.logger.info({ waitingFor: suspension.waits?.map((wait) => wait.waitingFor) }, 'run parked');
    return parked;
  }

  /** `false` when every child already ended, so the run replays right away. */
  async #moveToWaitingChildren(run: JobRun, outcome: RunOutcome): Promise<boolean> {
    await run.sink.write();
    // While it waits no worker watches its deadline: a delayed job does.
    if (run.deadline !== undefined) await this.#addDeadlineJob(run.job, run.deadline);
    const waiting = await run.job.moveToWaitingChildren(run.token ?? '');
    run.logger.info({ pendingChildren: outcome.suspended?.pendingChildren.length, waiting }, 'run suspended');
    return waiting;
  }

  /** The execution's services, every write passed through its `fence`. */
  #services(
    run: JobRun,
    journal: PreloadedReads['journal'],
    resources: RunResources,
    fence: ExecutionFence,
  ): RunServices {
    const { redis, config } = this.#deps;
    const { decoded, runId } = run;
    const rootRunId = decoded.child?.rootRunId ?? runId;
    const runJournal = new RedisRunJournal({
      redis,
      prefix: config.prefix,
      runId,
      attempt: run.attempt.token,
      preloaded: journal,
      // One write per step: its records go with the events in one script.
      batch: run.sink.batch,
    });
    const writes = fenceWrites(
      {
        // Only a recorded span is marked (a no-op span keeps nothing): no wrapper and no `.then` else.
        journal: trace.getActiveSpan()?.isRecording() ? markingReplays(runJournal) : runJournal,
        memory: run.memory,
        conversations: this.#conversationsOf(run.attempt.token),
        events: run.sink,
        progress: {
          record: async (value) => {
            await this.#deps.records.recordProgress(runId, JSON.stringify(value), run.attempt.token);
          },
        },
        waits: new RedisRunWaits({ redis, prefix: config.prefix, runId, attempt: run.attempt.token }),
        children: new RedisChildRunner({
          redis,
          prefix: config.prefix,
          queues: this.#deps.queues,
          parentQueue: run.job.queueQualifiedName,
          served: this.#deps.served,
          servedHere: this.#deps.agents,
          records: this.#deps.records,
          runId,
          rootRunId,
          maxChildrenPerRun: config.maxChildrenPerRun,
          // A pinned run's children are pinned to its build: they are part of the same deploy.
          pinnedBuild: pinnedBuildOfQueue(config.queueName, run.job.name, run.job.queueName),
          exposedResources: exposedDescriptors,
          deadline: run.deadline,
        }),
      },
      fence,
    );
    // One literal, the fenced writes in it (not a fenced copy of a first services object).
    const services: RunServices = {
      runId,
      attempt: run.attempt.token,
      journal: writes.journal,
      memory: writes.memory,
      conversations: writes.conversations,
      events: writes.events,
      outputs: this.#shared.outputs,
      // In the literal: a property added later reshapes the object.
      resources,
      progress: writes.progress,
      models: this.#deps.models,
      modelBudgets: new FleetModelBudgets({
        budgets: this.#modelBudgets.budgets,
        table: this.#modelBudgets.table,
        records: this.#deps.records,
        runId,
        attempt: run.attempt.token,
      }),
      treeUsage: new RedisTreeUsage({ redis, prefix: config.prefix, rootRunId }),
      waits: writes.waits,
      // Made only when read: the root invocation reads and links `abort` instead (see `RunCancel`).
      get signal() {
        return run.cancel.signal;
      },
      abort: run.cancel,
      logger: run.logger,
      limits: this.#shared.limits,
      fleetMemo: this.#deps.fleetMemo,
      children: writes.children,
    };
    if (decoded.conversationId !== undefined) {
      services.conversationId = decoded.conversationId;
      services.unfinishedTurns = run.turns;
    }
    const tenant = tenantOfId(runId);
    if (tenant !== undefined) services.tenant = tenant;
    if (decoded.scope !== undefined) services.scope = decoded.scope;
    if (decoded.child !== undefined) services.placement = decoded.child;
    const budget = inheritedBudget(this.#deps.prices, decoded.budget);
    if (budget !== undefined) services.budget = budget;
    return services;
  }

  /** The conversation store of an execution: its attempt's first serves the read made at the gate. */
  #conversationsOf(attempt: string): ConversationStore {
    const entered = this.#enteredReads.get(attempt);
    if (!entered) return this.#shared.conversations;
    this.#enteredReads.delete(attempt);
    return preloadedConversations(this.#shared.conversations, entered.conversationId, entered.read);
  }

  /** In the run's own queue: a worker serving its agent fires it. */
  async #addDeadlineJob(job: Job, deadline: number): Promise<void> {
    const runId = job.id ?? '';
    const data: DeadlineJobData = { runId, deadline };
    await this.#deps.queues.queueFor(job.name).add(DEADLINE_JOB_NAME, data, {
      jobId: deadlineJobId(runId),
      delay: Math.max(0, deadline - Date.now()) + DEADLINE_JOB_MARGIN_MS,
      removeOnComplete: true,
      removeOnFail: true,
    });
  }

  /**
   * A deadline job fired: a run still waiting on its children (or queued) ends `failed` with
   * `RunTimeoutError`, and so does its tree. It fires {@link DEADLINE_JOB_MARGIN_MS} after the
   * deadline: the children, which watch the same deadline where they execute, end first with
   * their own timeout (the parent then fails at its replay); the job is the backstop when they
   * cannot (their worker froze). A running run is left to its worker, which
   * watches the same deadline (and a worker that takes a stalled run over fails it at start).
   */
  async #expire(job: Job): Promise<void> {
    const parsed = deadlineJobDataSchema.safeParse(job.data);
    if (!parsed.success) return;
    const { runId, deadline } = parsed.data;
    const { records, redis, config, queues } = this.#deps;
    const record = await records.get(runId);
    if (!record || isTerminalStatus(record.status) || record.status === 'running') return;
    const error = new RunTimeoutError(runId, deadline, Date.now() - record.createdAt);
    const options = {
      redis,
      prefix: config.prefix,
      queues,
      records,
      flagSeconds: config.runRetentionSeconds,
    };
    // Its descendants share the deadline (they inherit it): they time out too.
    await cancelRunTree(options, record, (run) => ({
      status: 'failed',
      error: serializeError(new RunTimeoutError(run.runId, deadline, Date.now() - run.createdAt)),
    }));
    const logger = this.#deps.logger.child({ runId, agentId: record.agentId });
    logger.error({ err: error }, 'run failed: deadline passed while it waited');
    await this.#reportEnd(runId, logger);
  }

  /** The ancestor cancel flags of the child runs starting in one tick, read together. */
  #ancestorFlags: AnyKeyExistsBatch | undefined;

  /**
   * A cancel may have arrived while the job waited but could not be removed: the start script
   * reads the run's own flag; a child run also obeys its parent's and its root's cancel flags
   * (it may have been enqueued after the cancel walked the tree), read here, after the start
   * script was sent: the flags of every child starting in this tick in one MGET (a fan-out's
   * children start together and share them; one EXISTS per flag on a cluster), none for a root
   * run. Read from the raw job data (not yet validated): an id that is not a valid run id is
   * simply not checked, decoding rejects the job.
   */
  #ancestorCancelFlagSet(data: unknown): false | Promise<boolean> {
    const { redis, config } = this.#deps;
    const child = (data as { child?: { parentRunId?: unknown; rootRunId?: unknown } } | undefined)?.child;
    if (child === undefined) return false;
    const ids = new Set([child.parentRunId, child.rootRunId]);
    const flags = [...ids].flatMap((id) => (isValidRunId(id) ? [runKeys(config.prefix, id).cancel] : []));
    this.#ancestorFlags ??= new AnyKeyExistsBatch(redis);
    return this.#ancestorFlags.any(flags);
  }

  /**
   * A failed job its producer asked BullMQ to keep keeps no input (up to `maxPayloadBytes`):
   * the run record holds the outcome, and the input would never be read again.
   */
  async #trimKeptJob(job: Job, logger: Logger): Promise<void> {
    if (!keepsFailedJob(job.opts.removeOnFail)) return;
    const { input: _dropped, ...rest } = (job.data ?? {}) as Record<string, unknown>;
    await job
      .updateData(rest)
      .catch((error: unknown) => logger.warn({ err: error }, 'failed job not trimmed'));
  }

  /** Calls `onRunEnd` with the ended record (totals of the whole run, not of this execution). */
  async #reportEnd(runId: string, logger: Logger): Promise<void> {
    const onRunEnd = this.#deps.hooks?.onRunEnd;
    if (!onRunEnd) return;
    const record = await this.#deps.records.get(runId).catch(() => undefined);
    if (!record || !isTerminalStatus(record.status)) return;
    const info: WorkerRunEndInfo = {
      runId,
      agentId: record.agentId,
      status: record.status,
      usage: record.usage,
      modelCalls: record.modelCalls,
      durationMs: Math.max(0, (record.endedAt ?? 0) - (record.startedAt ?? record.endedAt ?? 0)),
      attempts: record.attempts,
    };
    if (record.error) info.error = record.error;
    if (record.parentRunId) info.parentRunId = record.parentRunId;
    if (record.tenant) info.tenant = record.tenant;
    this.#callHook(logger, () => onRunEnd(info));
  }

  /** A hook that throws is logged; it never changes how the run ends. */
  #callHook(logger: Logger, call: () => void): void {
    try {
      call();
    } catch (error) {
      logger.warn({ err: error }, 'worker hook threw');
    }
  }

  #log(logger: Logger, ending: RunEnding): void {
    const fields = { status: ending.status, modelCalls: ending.modelCalls, usage: ending.usage };
    if (ending.status === 'failed') logger.error({ ...fields, err: ending.error }, 'run failed');
    else logger.info(fields, `run ${ending.status}`);
  }
}

/**
 * The waits of a run that holds its conversation while it waits (its job stays first in the
 * conversation's line): each says so, so the run list tells why the runs behind it wait.
 */
function keepingConversation(suspension: RunSuspension, conversationId: string | undefined): RunSuspension {
  if (conversationId === undefined || !suspension.waits) return suspension;
  const waits = suspension.waits.map((wait) => ({
    ...wait,
    waitingFor: {
      ...wait.waitingFor,
      detail: `${wait.waitingFor.detail} (keeps conversation ${conversationId})`,
    },
  }));
  return { ...suspension, waits };
}

/** The run span's options: one object for every run. */
const RUN_SPAN_OPTIONS: InSpanOptions = {
  // Suspending on child runs, parking at the gate and a newer attempt are not failures.
  expected: (error) =>
    error instanceof WaitingChildrenError || error instanceof DelayedError || error instanceof WaitingError,
};

/** Admitted without a gate: no conversation, no concurrency cap (or an unknown agent). */
const ADMITTED: { readonly cap: undefined } = Object.freeze({ cap: undefined });

/** How long after a suspended run's deadline its deadline job fires (see `#expire`). */
const DEADLINE_JOB_MARGIN_MS = 1000;

/** How long a cancelled or timed-out execution may take to end before it is abandoned. */
export const DEFAULT_ABANDON_GRACE_MS = 500;

/**
 * The run's deadline: the one in its job data (a submit's `timeoutMs`, or its parent's), or
 * its agent's `timeoutMs` from the job's creation, whichever comes first. The same on every
 * attempt and every worker.
 */
function deadlineOf(job: Job, agent: AnyAgent, decoded: DecodedRunJob): number | undefined {
  const timeoutMs = agentDefinitionOf(agent).timeoutMs;
  const own = timeoutMs === undefined ? undefined : job.timestamp + timeoutMs;
  if (own === undefined) return decoded.deadline;
  return decoded.deadline === undefined ? own : Math.min(own, decoded.deadline);
}

function timeoutError(job: Job, deadline: number): RunTimeoutError {
  return new RunTimeoutError(job.id ?? '', deadline, Date.now() - job.timestamp);
}

/** The worker's prices under what the job data carries (an ancestor's limits and prices win). */
function inheritedBudget(
  prices: PriceTable | undefined,
  inherited: InheritedBudget | undefined,
): InheritedBudget | undefined {
  if (prices === undefined) return inherited;
  return { ...inherited, prices: { ...prices, ...inherited?.prices } };
}

/** Failures a retry cannot fix: the deadline passed, the tree's usage budget is spent. */
const FINAL_ERRORS: ReadonlySet<string> = new Set([RunTimeoutError.errorName, BudgetExceededError.errorName]);

/** Whether BullMQ will attempt the job again after this failure (its agent's `retry`). */
function willRetry(job: Job): boolean {
  return job.attemptsMade + 1 < (job.opts.attempts ?? 1);
}
