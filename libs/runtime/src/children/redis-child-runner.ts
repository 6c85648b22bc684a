/**
 * The worker's {@link ChildRunner}: each child call becomes a run of its own, a BullMQ child
 * job of the calling run's job (so BullMQ re-queues the parent from waiting-children once all
 * its children ended), with a run record that stores its place in the tree. One instance per
 * execution of the calling run: it reads the run's set of known children at most once (only
 * for a child whose record exists and has not ended), so a replay never enqueues a known child
 * again.
 */

import { emptyUsage } from '@flotilla/ir';
import type { JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import type { AgentContext } from '../context/agent-context.js';
import type { AgentDefinition } from '../context/agent-definition.js';
import type { ChildCall, ChildResolution, ChildRunner, RunPlacement } from '../context/child-runner.js';
import type { InheritedBudget } from '../context/run-services.js';
import { scopeLayersOf } from '../context/scope-layers.js';
import { effectiveBudget } from '../engine/usage-budget.js';
import { InvalidBudgetError } from '../errors/budget-errors.js';
import { AbortError, ForeignChildRunError, NonDeterminismError } from '../errors/run-errors.js';
import { deserializeError, type SerializedError, serializeError } from '../errors/serialize-error.js';
import type { AgentQueues } from '../jobs/agent-queues.js';
import { ENDED_JOB_RETENTION } from '../jobs/ended-job-retention.js';
import { encodeRunJobData } from '../jobs/run-job-data.js';
import { tenantOfId } from '../jobs/tenant-ids.js';
import { runKeys } from '../keys.js';
import type { ModelAdapter } from '../model/model-adapter.js';
import type { ServedAgents } from '../registry/worker-registry.js';
import type { ResourceDescriptor } from '../resources/resource-descriptor.js';
import { ResourceOwnerGoneError } from '../resources/resource-errors.js';
import type { RedisRunRecords } from '../runs/redis-run-records.js';
import type { RunRecord } from '../runs/run-record.js';
import { isTerminalStatus } from '../runs/run-status.js';
import { TickBatch } from '../shared/tick-batch.js';
import { MAX_INHERITED_LIMITS, MAX_INHERITED_PRICE_ENTRIES } from '../usage/budget-options.js';
import { childRunIdOf } from './child-run-id.js';

/** What a {@link RedisChildRunner} needs. */
export interface RedisChildRunnerOptions {
  redis: Redis;
  prefix: string;
  /** The agent queues: each child goes to its own agent's queue, as a child job of the caller's. */
  queues: AgentQueues;
  /** The qualified name of the calling run's queue (its job is the children's parent job). */
  parentQueue: string;
  records: RedisRunRecords;
  /** The calling run. */
  runId: string;
  /** The root of the calling run's tree (the calling run itself for a root run). */
  rootRunId: string;
  /** @default 1000 */
  maxChildrenPerRun: number;
  /** Whether a live worker serves an agent: a child no worker serves says so on its record. @default not checked */
  served?: ServedAgents | undefined;
  /**
   * The agents this worker serves: a child of one of them is served (by this live worker)
   * without asking `served` (a promise and a registry lookup per child). @default none
   */
  servedHere?: ReadonlyMap<string, unknown> | undefined;
  /** Descriptors of the resources a child of `parent` inherits (the resource registry fills them). */
  exposedResources?: (parent: AgentContext) => ResourceDescriptor[];
  /** The calling run's deadline (epoch ms): its children inherit it. @default none */
  deadline?: number | undefined;
  /**
   * The build the calling run is pinned to: its children are pinned to it too (record and build
   * queue), so a whole tree replays on one build's code. @default not pinned
   */
  pinnedBuild?: string | undefined;
}

/** Child runs over BullMQ parent/child jobs. */
export class RedisChildRunner implements ChildRunner {
  readonly maxChildrenPerRun: number;
  readonly #options: RedisChildRunnerOptions;
  #known: Promise<Set<string>> | undefined;
  /**
   * Children enqueued in one tick (a fan-out) join the children set in one SADD. Made at the
   * first child: every execution gets a runner, most (a fan-out's leaves) call no child.
   */
  #joins: TickBatch<string, undefined> | undefined;

  constructor(options: RedisChildRunnerOptions) {
    this.#options = options;
    this.maxChildrenPerRun = options.maxChildrenPerRun;
  }

  async resolve(call: ChildCall): Promise<ChildResolution> {
    const { runId, rootRunId, records } = this.#options;
    const childRunId = childRunIdOf(rootRunId, runId, call.position, call.attempt);
    // A child an earlier execution suspended on (its position is a pending step, loaded with the
    // journal) was enqueued and joined the children set before that suspension: its record is
    // read first (it ended, as a rule: that is why this run replays), the set only if it has not.
    if (call.parent.run.pendingSteps.has(call.position))
      return this.#settle(call, childRunId, await records.get(childRunId));
    // Any other child has no record (every child of a first execution) unless an execution
    // crashed before suspending on it: create the record first (a no-op when it exists) and read
    // the record, then the set, only when it existed, not before every creation.
    if ((await this.#createRecord(call, childRunId)) === 'created') {
      await this.#enqueue(call, childRunId);
      return { state: 'pending', childRunId, enqueued: true };
    }
    return this.#settle(call, childRunId, await records.get(childRunId));
  }

  /** A child whose record existed (`record`, read after that) or was enqueued earlier. */
  async #settle(
    call: ChildCall,
    childRunId: string,
    record: RunRecord | undefined,
  ): Promise<ChildResolution> {
    const { runId, rootRunId } = this.#options;
    // Child ids are computable: adopt only a run this run created (its record names it).
    if (record && (record.parentRunId !== runId || record.rootRunId !== rootRunId))
      throw new ForeignChildRunError(childRunId, runId, record);
    if (record?.fingerprint !== undefined && record.fingerprint !== call.fingerprint) {
      throw new NonDeterminismError(
        call.position,
        { kind: 'child', fingerprint: record.fingerprint },
        { kind: 'child', fingerprint: call.fingerprint },
      );
    }
    if (record && isTerminalStatus(record.status)) {
      const resolution = finished(childRunId, record);
      if (resolution.state === 'finished') {
        const stats = await call.parent.run.treeUsage.runStats(childRunId);
        if (stats) resolution.stats = stats;
      }
      return resolution;
    }
    if ((await this.#knownChildren()).has(childRunId))
      return { state: 'pending', childRunId, enqueued: false };
    // Ours from an execution that crashed before the children set (or it expired): enqueue again.
    if (!record) await this.#createRecord(call, childRunId);
    await this.#enqueue(call, childRunId);
    return { state: 'pending', childRunId, enqueued: true };
  }

  /**
   * The run's children enqueued by earlier executions, read once per execution and only when a
   * child's record existed but it had not ended: a first execution (no record yet) and a replay
   * whose children ended never read it.
   */
  #knownChildren(): Promise<Set<string>> {
    const { redis, prefix, runId } = this.#options;
    this.#known ??= redis.smembers(runKeys(prefix, runId).children).then((ids) => new Set(ids));
    return this.#known;
  }

  #joinsBatch(): TickBatch<string, undefined> {
    if (this.#joins) return this.#joins;
    const { redis, prefix, runId } = this.#options;
    const { children } = runKeys(prefix, runId);
    this.#joins = new TickBatch(async (ids) => {
      await redis.sadd(children, ...ids);
      return ids.map(() => undefined);
    });
    return this.#joins;
  }

  /** The child's `queued` record, with its place in the tree (see {@link #enqueue}). */
  #createRecord(call: ChildCall, childRunId: string): Promise<'created' | 'exists' | 'conflict'> {
    const { records, runId, rootRunId, pinnedBuild } = this.#options;
    return records.create({
      runId: childRunId,
      agentId: call.definition.id,
      parentRunId: runId,
      rootRunId,
      callPath: call.position,
      fingerprint: call.fingerprint,
      tenant: tenantOfId(rootRunId),
      pinnedBuild,
    });
  }

  /**
   * Record first (created by the caller, with its place in the tree), then the job, then the
   * children set (one SADD for the children of a tick, each sent only after its job): a crash in
   * between leaves a child that the next execution enqueues again (idempotent by job id), never
   * a known child without a job.
   */
  async #enqueue(call: ChildCall, childRunId: string): Promise<void> {
    const { queues, parentQueue, records, runId, rootRunId, pinnedBuild } = this.#options;
    const { parent, definition, position } = call;
    const placement: RunPlacement = {
      callPath: position,
      depth: parent.depth + 1,
      parentRunId: runId,
      rootRunId,
    };
    const modelId = modelIdOf(parent.resolveModel(), parent.run.services.models);
    if (modelId !== undefined) placement.modelId = modelId;
    const scope = scopeLayersOf(parent);
    const data = encodeRunJobData(call.props, {
      // No layers (most trees): none in the job, which a child run reads as none (`services.scope`).
      scope: scope.length > 0 ? scope : undefined,
      child: placement,
      resources: this.#options.exposedResources?.(parent),
      deadline: this.#options.deadline,
      budget: inheritedBudgetOf(parent),
    });
    await queues.queueFor(definition.id, pinnedBuild).add(definition.id, data, {
      ...retryOptions(definition),
      jobId: childRunId,
      parent: { id: runId, queue: parentQueue },
      // A failed child releases its parent, which replays and throws the child's error at the await.
      ignoreDependencyOnFailure: true,
      ...ENDED_JOB_RETENTION,
    });
    await this.#joinsBatch().add(childRunId);
    // A set read before this child joined it learns of it here (a later call at this id); a
    // failed read failed the call that made it, not this one.
    this.#known?.then(
      (known) => known.add(childRunId),
      () => undefined,
    );
    const { served, servedHere } = this.#options;
    if (served && !servedHere?.has(definition.id) && !(await served.serves(definition.id)))
      await records.markUnserved(childRunId, definition.id);
  }
}

function retryOptions(definition: AgentDefinition): Pick<JobsOptions, 'attempts' | 'backoff'> {
  const retry = definition.retry;
  if (!retry) return { attempts: 1 };
  const options: Pick<JobsOptions, 'attempts' | 'backoff'> = { attempts: retry.attempts };
  if (retry.backoff) options.backoff = { type: retry.backoff.type, delay: retry.backoff.delayMs };
  return options;
}

/**
 * The limits and prices of `parent`'s chain, for the child's job (empty when none are set).
 * @throws InvalidBudgetError when the merged price tables are too large to travel
 */
function inheritedBudgetOf(parent: AgentContext): InheritedBudget {
  const { limits, prices } = effectiveBudget(parent);
  const budget: InheritedBudget = {};
  if (limits.length > MAX_INHERITED_LIMITS)
    throw new InvalidBudgetError(
      'equipBudget',
      'maxTokens / maxCostMicroUsd',
      `are set by ${limits.length} agents on this chain, over the ${MAX_INHERITED_LIMITS} a child run can inherit`,
    );
  if (limits.length > 0) budget.limits = limits;
  const models = Object.keys(prices).length;
  if (models > MAX_INHERITED_PRICE_ENTRIES)
    throw new InvalidBudgetError(
      'equipBudget',
      'prices',
      `of this agent's chain (and worker) hold ${models} models together, over the ${MAX_INHERITED_PRICE_ENTRIES} a child run can inherit; price only the models the tree uses`,
    );
  if (models > 0) budget.prices = prices;
  return budget;
}

/** Failures that are not a child's outcome: the parent starts the child again instead. */
function isTransient(error: SerializedError): boolean {
  return ResourceOwnerGoneError.is(deserializeError(error));
}

function finished(childRunId: string, record: RunRecord): ChildResolution {
  const totals = { usage: record.usage ?? emptyUsage(), modelCalls: record.modelCalls };
  if (record.status === 'succeeded') {
    return { state: 'finished', childRunId, outcome: { ok: true, value: record.output ?? null }, ...totals };
  }
  const error =
    record.error ??
    serializeError(
      record.status === 'cancelled'
        ? new AbortError(`child run ${childRunId} was cancelled`)
        : new Error(`child run ${childRunId} failed without an error`),
    );
  if (record.status === 'failed' && isTransient(error)) return { state: 'retry', childRunId, error };
  return { state: 'finished', childRunId, outcome: { ok: false, error }, ...totals };
}

/**
 * The id under which a child run on another worker finds `model` in its `models`: the key
 * `model` is registered under, else its own `id` when an adapter is registered by that id;
 * `undefined` when the model cannot be named (an adapter passed inline and not registered).
 */
function modelIdOf(
  model: ModelAdapter | undefined,
  models: ReadonlyMap<string, ModelAdapter>,
): string | undefined {
  if (model === undefined) return undefined;
  for (const [id, registered] of models) if (registered === model) return id;
  return models.has(model.id) ? model.id : undefined;
}
