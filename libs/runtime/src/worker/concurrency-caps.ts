/**
 * The worker's side of concurrency caps (`gate/concurrency-gate.ts`): before a run of a capped
 * agent executes it takes a place under its cap (renewed while it executes); a run over the cap
 * is parked without holding a slot (`waitingFor: { kind: 'concurrency' }`); a run that stops
 * executing (ends, suspends, parks, is handed back) gives its place back, which wakes the next.
 */
import { emptyUsage } from '@flotilla/ir';
import { type Job, UnrecoverableError } from 'bullmq';
import type { Logger } from 'pino';
import { agentDefinitionOf } from '../agent/create-agent.js';
import type { AgentConcurrency, AnyAgent } from '../context/agent-definition.js';
import { serializeError } from '../errors/serialize-error.js';
import type { Cap, ConcurrencyGate } from '../gate/concurrency-gate.js';
import { ConcurrencyKeyError } from '../gate/concurrency-key-error.js';
import { decodeRunJobData } from '../jobs/run-job-data.js';
import { tenantOfId } from '../jobs/tenant-ids.js';
import type { JsonLimits } from '../json/json-bounds.js';
import type { RedisRunRecords } from '../runs/redis-run-records.js';
import { callPathOf } from './job-call-path.js';
import { parkAtGate } from './park-at-gate.js';

/** The longest cap key a `concurrency.key` function may answer. */
const MAX_CAP_KEY_LENGTH = 200;

export interface ConcurrencyCapsOptions {
  gate: ConcurrencyGate;
  records: RedisRunRecords;
  /** How long a parked run waits before it looks again by itself. */
  recheckMs: number;
  /** Bounds of the run input read for a `concurrency.key` function. */
  limits: JsonLimits;
}

/** A place held under a cap while the run executes; `release` it once (idempotent). */
export interface CapHold {
  release(): Promise<void>;
}

export class ConcurrencyCaps {
  readonly #options: ConcurrencyCapsOptions;

  constructor(options: ConcurrencyCapsOptions) {
    this.#options = options;
  }

  /**
   * Takes a place for the run when its agent has a cap (`undefined`: no cap), or parks the job.
   * `onParked` runs before the job is parked (the run's deadline job is added there).
   * Returns `ended` when the run ended meanwhile (skip it).
   * @throws DelayedError when the job was parked
   * @throws UnrecoverableError when the agent's key function failed (the run ended `failed`)
   */
  async admit(
    at: { job: Job; token: string | undefined; logger: Logger },
    agent: AnyAgent | undefined,
    onParked: () => Promise<void>,
  ): Promise<CapHold | undefined | 'ended'> {
    const concurrency = agent ? agentDefinitionOf(agent).concurrency : undefined;
    if (!agent || !concurrency) return undefined;
    const { job, token, logger } = at;
    const runId = job.id ?? '';
    const cap = await this.#capOf(job, agent.id, concurrency);
    const { gate, records, recheckMs } = this.#options;
    const entry = await gate.enter(cap, runId);
    if (entry.entered) return this.#hold(cap, runId, logger);
    await onParked();
    logger.info({ cap: describeCap(cap), holders: entry.holders }, 'run waits for its concurrency cap');
    await parkAtGate({
      job,
      token,
      records,
      waitingFor: { kind: 'concurrency', detail: describeCap(cap) },
      recheckMs,
      isOver: () => gate.hasRoom(cap),
      wake: async () => {
        await gate.wakeRun(runId);
      },
    });
    // Not parked: the run ended while it waited.
    await gate.leave(cap, runId);
    return 'ended';
  }

  /** The run's cap; a key function that fails ends the run `failed` with `ConcurrencyKeyError`. */
  async #capOf(job: Job, agentId: string, concurrency: AgentConcurrency): Promise<Cap> {
    const runId = job.id ?? '';
    const tenant = tenantOfId(runId);
    if (concurrency.key === undefined) return { agentId, key: '', limit: concurrency.limit };
    if (concurrency.key === 'tenant') return { agentId, key: tenant ?? '', limit: concurrency.limit };
    let key: unknown;
    let failure: ConcurrencyKeyError | undefined;
    try {
      key = concurrency.key(inputOf(job, this.#options.limits), tenant === undefined ? {} : { tenant });
      if (typeof key !== 'string' || key.length === 0 || key.length > MAX_CAP_KEY_LENGTH)
        failure = new ConcurrencyKeyError(agentId, `returned ${describeValue(key)}`);
    } catch (error) {
      failure = new ConcurrencyKeyError(agentId, 'threw', error);
    }
    if (failure) {
      await this.#options.records.finish(runId, callPathOf(job), {
        status: 'failed',
        error: serializeError(failure),
        usage: emptyUsage(),
        modelCalls: 0,
      });
      throw new UnrecoverableError(`${failure.name}: ${failure.message}`);
    }
    return { agentId, key: key as string, limit: concurrency.limit };
  }

  #hold(cap: Cap, runId: string, logger: Logger): CapHold {
    const { gate } = this.#options;
    const timer = setInterval(
      () => {
        gate
          .renew(cap, runId)
          .catch((error: unknown) => logger.warn({ err: error }, 'cap place not renewed'));
      },
      Math.max(100, Math.floor(gate.leaseMs / 3)),
    );
    timer.unref();
    let released: Promise<void> | undefined;
    return {
      release: () => {
        clearInterval(timer);
        released ??= gate.leave(cap, runId);
        return released;
      },
    };
  }
}

/** `<agentId> key <key> (limit <n>)`, or `<agentId> (limit <n>)` for an agent-wide cap. */
function describeCap(cap: Cap): string {
  return cap.key === ''
    ? `${cap.agentId} (limit ${cap.limit})`
    : `${cap.agentId} key ${cap.key} (limit ${cap.limit})`;
}

/** The run input, checked as the run will check it; `{}` when it is bad (the run then fails when it decodes it). */
function inputOf(job: Job, limits: JsonLimits): unknown {
  try {
    return decodeRunJobData(job.data, limits).input ?? {};
  } catch {
    return {};
  }
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return `a string of ${value.length} characters`;
  return value === null ? 'null' : typeof value;
}
