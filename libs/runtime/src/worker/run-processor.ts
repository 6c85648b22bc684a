import { emptyUsage } from '@flotilla/ir';
import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { FlotillaConfig } from '../config/flotilla-config.js';
import { executeRun, rootCallPath } from '../engine/execute-run.js';
import type { RunServices } from '../engine/run-services.js';
import { AbortError } from '../errors/abort-error.js';
import { serializeError } from '../errors/serialize-error.js';
import { RedisRunEventSink } from '../events/redis-run-event-sink.js';
import { RedisRunJournal } from '../journal/redis-run-journal.js';
import { runKeys } from '../keys.js';
import type { FleetMemo } from '../memo/fleet-memo.js';
import { RedisRunMemoryStore } from '../memory/redis-run-memory-store.js';
import type { ModelAdapter } from '../model/model-adapter.js';
import type { RedisRunRecords } from '../runs/redis-run-records.js';
import type { RunEnding } from '../runs/run-script-args.js';
import { RedisConversationStore } from '../store/redis-conversation-store.js';
import type { CancelListener } from './cancel-listener.js';
import { RunEndCapturingSink } from './run-end-capturing-sink.js';
import { decodeRunJobData } from './run-job-data.js';
import { RunStalledError } from './run-stalled-error.js';
import { UnknownAgentError } from './unknown-agent-error.js';
import type { AnyAgent } from './worker-options.js';

/** What a {@link RunProcessor} needs from its worker. */
export interface RunProcessorDependencies {
  redis: Redis;
  config: FlotillaConfig;
  agents: ReadonlyMap<string, AnyAgent>;
  models: ReadonlyMap<string, ModelAdapter>;
  records: RedisRunRecords;
  cancels: CancelListener;
  /** Shared by every run of the worker (MCP `tools/list` and other fleet-wide values). */
  fleetMemo: FleetMemo;
  logger: Logger;
}

/**
 * Executes one run per BullMQ job: marks it running, checks the job, builds Redis
 * {@link RunServices}, calls `executeRun`, and ends the run record with its outcome. Bad
 * input (unknown agent, oversized or non-JSON input) and agent failures end the run as
 * `failed` with a typed, serialized error; nothing thrown here stops the worker.
 */
export class RunProcessor {
  readonly #deps: RunProcessorDependencies;

  constructor(dependencies: RunProcessorDependencies) {
    this.#deps = dependencies;
  }

  /** The BullMQ processor. Throws (so BullMQ marks the job failed) when the run failed. */
  async process(job: Job): Promise<void> {
    const runId = job.id ?? '';
    const agentId = job.name;
    const logger = this.#deps.logger.child({ runId, agentId, jobId: job.id });
    const start = await this.#deps.records.start({ runId, agentId });
    if (!start.started) {
      logger.info({ status: start.status }, 'run already ended; job skipped');
      return;
    }
    logger.info({ attempt: start.attempt }, 'run started');
    const controller = this.#deps.cancels.register(runId);
    try {
      await this.#execute(job, controller, logger);
    } finally {
      this.#deps.cancels.release(runId, controller);
    }
  }

  /** Ends a run whose job BullMQ failed outside the processor (stalled too often). */
  async failOutside(job: Job | undefined, error: Error): Promise<void> {
    if (!job?.id) return;
    const reason = /stalled/i.test(error.message) ? new RunStalledError(job.id, error.message) : error;
    const ended = await this.#deps.records.finish(job.id, rootCallPath(job.name), {
      status: 'failed',
      error: serializeError(reason),
      usage: emptyUsage(),
      modelCalls: 0,
    });
    if (ended)
      this.#deps.logger.error({ runId: job.id, agentId: job.name, jobId: job.id, err: reason }, 'run failed');
  }

  async #execute(job: Job, controller: AbortController, logger: Logger): Promise<void> {
    const runId = job.id ?? '';
    const { redis, config } = this.#deps;
    const keys = runKeys(config.prefix, runId);
    const memory = new RedisRunMemoryStore({ redis, prefix: config.prefix, runId });
    const sink = new RunEndCapturingSink(
      new RedisRunEventSink({
        redis,
        prefix: config.prefix,
        runId,
        maxLength: config.eventStreamMaxLength,
        onError: (error) => logger.warn({ err: error }, 'run events could not be written'),
      }),
    );
    let ending: RunEnding;
    try {
      // A cancel may have arrived while the job waited but could not be removed.
      if ((await redis.exists(keys.cancel)) === 1) {
        controller.abort();
        throw new AbortError(`run ${runId} was cancelled before it started`);
      }
      const agent = this.#deps.agents.get(job.name);
      if (!agent) throw new UnknownAgentError(job.name, [...this.#deps.agents.keys()]);
      const decoded = decodeRunJobData(job.data, config.maxPayloadBytes);
      const services: RunServices = {
        runId,
        journal: new RedisRunJournal({ redis, prefix: config.prefix, runId }),
        memory,
        conversations: new RedisConversationStore({ redis, prefix: config.prefix }),
        events: sink,
        models: this.#deps.models,
        signal: controller.signal,
        logger,
        fleetMemo: this.#deps.fleetMemo,
      };
      if (decoded.conversationId !== undefined) services.conversationId = decoded.conversationId;
      if (decoded.scope !== undefined) services.scope = decoded.scope;
      const outcome = await executeRun({ agent, input: decoded.input, services });
      ending = {
        status: 'succeeded',
        output: outcome.output,
        usage: outcome.usage,
        modelCalls: outcome.modelCalls,
      };
    } catch (error) {
      ending = {
        status: controller.signal.aborted ? 'cancelled' : 'failed',
        error: serializeError(error),
        usage: sink.runEnd?.usage ?? emptyUsage(),
        modelCalls: sink.runEnd?.modelCalls ?? 0,
      };
    }
    await sink.flush();
    await this.#deps.records.finish(runId, rootCallPath(job.name), ending);
    await memory.deleteAll().catch((error: unknown) => logger.warn({ err: error }, 'run memory not deleted'));
    this.#log(logger, ending);
    if (ending.status !== 'succeeded') throw new Error(`${ending.error?.name}: ${ending.error?.message}`);
  }

  #log(logger: Logger, ending: RunEnding): void {
    const fields = { status: ending.status, modelCalls: ending.modelCalls, usage: ending.usage };
    if (ending.status === 'failed') logger.error({ ...fields, err: ending.error }, 'run failed');
    else logger.info(fields, `run ${ending.status}`);
  }
}
