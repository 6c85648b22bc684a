import type { TokenUsage } from '@flotilla/ir';
import { addUsage, emptyUsage } from '@flotilla/ir';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { AttemptSupersededError } from '../errors/run-errors.js';
import type { SerializedError } from '../errors/serialize-error.js';
import { publishEventNotice, runEndChannel } from '../events/event-notice.js';
import type { WrittenEvents } from '../events/redis-run-event-sink.js';
import { DEFAULT_EVENT_STREAM_MAX_LENGTH } from '../events/redis-run-event-sink.js';
import { parseStreamEntries, type StreamedRunEvent } from '../events/redis-run-event-stream.js';
import type { RunEndEvent } from '../events/run-event.js';
import {
  decodeRunTimeline,
  encodeRunTimeline,
  encodeSplitRunTimeline,
  type RunEndOutcome,
} from '../events/run-timeline.js';
import type { DrainedWrites } from '../events/run-write-batch.js';
import {
  type ParkedWait,
  parkedWaitsSchema,
  summarizeWaits,
  type WaitingFor,
  waitingForSchema,
} from '../gate/waiting-for.js';
import { type CurrentWait, WaitingRuns } from '../gate/waiting-runs.js';
import { runKeys } from '../keys.js';
import { ATTEMPT_SUPERSEDED } from '../store/lua/attempt-fence.lua.js';
import { clearAttemptTraceScript } from './lua/clear-attempt-trace-1.lua.js';
import { compactEventsScript } from './lua/compact-events-2.lua.js';
import { createRunScript } from './lua/create-run-2.lua.js';
import { finishRunScript } from './lua/finish-run-12.lua.js';
import { markUnservedScript } from './lua/mark-unserved-1.lua.js';
import { markWaitingScript } from './lua/mark-waiting-1.lua.js';
import { parkRunScript } from './lua/park-run-1.lua.js';
import { pinRunScript } from './lua/pin-run-1.lua.js';
import { recordProgressScript } from './lua/record-progress-1.lua.js';
import { startRunScript } from './lua/start-run-5.lua.js';
import { suspendRunScript } from './lua/suspend-run-3.lua.js';
import { swapAttemptTraceScript } from './lua/swap-attempt-trace-1.lua.js';
import { wakeRunScript } from './lua/wake-run-1.lua.js';
import { runEndText } from './run-end-text.js';
import { RedisRunIndex } from './run-index.js';
import type { RunRecord } from './run-record.js';
import {
  createRunArgs,
  type FinishTimeline,
  finishRunArgs,
  type NewRun,
  type RunEnding,
  type RunRetention,
  type RunToStart,
  startRunArgs,
  suspendRunArgs,
} from './run-script-args.js';
import { isTerminalStatus, type RunStatus } from './run-status.js';

/** How long a compacted run's event stream stays readable (see compact-events-2). */
export const COMPACTED_STREAM_GRACE_MS = 10_000;

/** Ended runs: record, timeline and journal kept 7 days. */
export const DEFAULT_RUN_RETENTION: RunRetention = {
  recordSeconds: 7 * 24 * 3600,
  journalSeconds: 7 * 24 * 3600,
};

const usageSchema = z.object({
  promptTokens: z.number(),
  completionTokens: z.number(),
  totalTokens: z.number(),
  details: z.record(z.string(), z.number()).optional(),
});
const errorSchema = z.looseObject({ name: z.string(), message: z.string() });

/** The usage and model calls a run record carries (of its earlier, suspended executions). */
export interface RunTotals {
  usage: TokenUsage;
  modelCalls: number;
}

/**
 * What `start` found: the run may go on (`attempt` counts from 1, `totals` are what the record
 * carries, to hand to `finish`; `wakes` is the record's count of wake-ups, see
 * {@link RedisRunRecords.wakes}; `cancelled` whether the run's own cancel flag is set) or had
 * already ended.
 */
export type RunStart =
  | {
      started: true;
      attempt: number;
      totals: RunTotals;
      wakes: number;
      cancelled: boolean;
      /** What the start read for the execution (`RunToStart.preload`). */
      preloaded: PreloadedReads;
      /**
       * No execution of the run started before this one (a first attempt's first start): the
       * run's stream holds only what this attempt writes (`finish`'s `firstExecution`).
       */
      firstExecution: boolean;
    }
  | { started: false; status: RunStatus };

/** Reads of a run's keys that `start-run-5` made after its fence; each absent when not made. */
export interface PreloadedReads {
  /** The journal's fields (position → entry JSON) and the record's `pendingSteps` (or null). */
  journal?: { fields: Record<string, string>; pendingSteps: string | null };
  /** The root invocation's memory fields (key → JSON). */
  memory?: Record<string, string>;
}

/**
 * An HGETALL reply as Lua passes it on (a flat list), as the object ioredis' `hgetall` makes of
 * one: a field such as `__proto__` becomes an own property, as there.
 */
function hashOf(flat: readonly string[]): Record<string, string> {
  const hash: Record<string, string> = {};
  for (let index = 0; index < flat.length; index += 2) {
    const field = flat[index] as string;
    const value = flat[index + 1] as string;
    if (field in hash)
      Object.defineProperty(hash, field, { value, configurable: true, enumerable: true, writable: true });
    else hash[field] = value;
  }
  return hash;
}

/**
 * Run records in Redis (`runKeys(…).record`, a hash). Every transition is one Lua script, so
 * a run ends exactly once whoever ends it: the worker, a cancel, or the stalled-job handler.
 */
export class RedisRunRecords {
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #retention: RunRetention;
  readonly #eventStreamMaxLength: number;
  /** The run list indexes, written after each record is created (`run-index.ts`). */
  readonly index: RedisRunIndex;
  /** The fleet-wide count of waiting runs, entered and left after each `waitingFor` write. */
  readonly waiting: WaitingRuns;

  constructor(options: {
    redis: Redis;
    prefix: string;
    /** @default DEFAULT_RUN_RETENTION */
    retention?: RunRetention;
    /** @default DEFAULT_EVENT_STREAM_MAX_LENGTH */
    eventStreamMaxLength?: number;
  }) {
    this.#redis = options.redis;
    this.#prefix = options.prefix;
    this.#retention = options.retention ?? DEFAULT_RUN_RETENTION;
    this.#eventStreamMaxLength = options.eventStreamMaxLength ?? DEFAULT_EVENT_STREAM_MAX_LENGTH;
    this.index = new RedisRunIndex({
      redis: this.#redis,
      prefix: this.#prefix,
      keySeconds: this.#retention.recordSeconds + 24 * 3600,
    });
    this.waiting = new WaitingRuns({ redis: this.#redis, prefix: this.#prefix });
  }

  /**
   * Creates a `queued` record: `'created'`, or `'exists'` when the run exists already with the
   * same submission hash (idempotent submit), or `'conflict'` when it exists with another one
   * (or none: a child run, or a record older than submission hashes).
   */
  async create(run: NewRun): Promise<'created' | 'exists' | 'conflict'> {
    const { outcome, createdAt } = await this.createUnindexed(run);
    if (outcome === 'created') await this.index.add({ ...run, createdAt });
    // The same submission again: index it again, which repairs a create that crashed before.
    else if (outcome === 'exists') await this.#reindex(run.runId);
    return outcome;
  }

  /**
   * {@link create} without the index writes: the caller writes them (`index.add` with
   * `createdAt`, once created; again from the stored record when it exists), e.g. in the same
   * round trip as its next write.
   */
  async createUnindexed(
    run: NewRun,
  ): Promise<{ outcome: 'created' | 'exists' | 'conflict'; createdAt: number }> {
    const createdAt = Date.now();
    const call = createRunArgs(runKeys(this.#prefix, run.runId), run, createdAt);
    const code = await createRunScript.run(this.#redis, call.keys, call.args);
    return { outcome: code === 1 ? 'created' : code === 0 ? 'exists' : 'conflict', createdAt };
  }

  /** Adds the stored record of `runId` to the run list indexes again (idempotent). */
  async #reindex(runId: string): Promise<void> {
    const record = await this.get(runId);
    if (record) await this.index.add(record);
  }

  /** The records of `runIds` in that order (`undefined` where there is none: expired). */
  async getMany(runIds: readonly string[]): Promise<(RunRecord | undefined)[]> {
    return Promise.all(runIds.map((runId) => this.get(runId)));
  }

  /**
   * Marks the run `running` unless it already ended, and reads in the same script what the
   * worker needs next: the totals the record carries, its count of wake-ups and whether its
   * cancel flag is set (one command, one round trip). The record takes `run.attempt` (the
   * attempt fence: older attempts' writes are refused from then on).
   * @throws AttemptSupersededError when `run.continuing` and a newer attempt owns the run
   */
  start(run: RunToStart): Promise<RunStart> {
    // Not an async function: one `.then` per start instead of the function's promise and its await.
    try {
      const call = startRunArgs(runKeys(this.#prefix, run.runId), run, Date.now());
      return startRunScript
        .run(this.#redis, call.keys, call.args)
        .then((reply) => this.#started(run.runId, reply));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** The start script's reply, once a wait it cleared has left the waiting-runs count. */
  #started(runId: string, reply: unknown): RunStart | Promise<RunStart> {
    if (reply === ATTEMPT_SUPERSEDED) throw new AttemptSupersededError(runId, 'a start');
    const [code, detail, cleared, usage, modelCalls, wakes, cancelled, journal, pending, memory, first] =
      reply as [
        number,
        string | number,
        number?,
        (string | null)?,
        (string | null)?,
        (string | null)?,
        number?,
        (string[] | 0)?,
        (string | null | 0)?,
        (string[] | 0)?,
        number?,
      ];
    let start: RunStart;
    if (code !== 1) start = { started: false, status: detail as RunStatus };
    else {
      const preloaded: PreloadedReads = {};
      if (Array.isArray(journal))
        preloaded.journal = {
          fields: hashOf(journal),
          pendingSteps: pending === 0 ? null : (pending ?? null),
        };
      if (Array.isArray(memory)) preloaded.memory = hashOf(memory);
      start = {
        started: true,
        attempt: Number(detail),
        totals: totalsOf(usage, modelCalls),
        wakes: Number(wakes ?? 0),
        cancelled: cancelled === 1,
        preloaded,
        firstExecution: first === 1,
      };
    }
    if (cleared !== 1) return start;
    return this.#countWait(() => this.waiting.leave(runId)).then(() => start);
  }

  /**
   * Pins a root run to `buildId` unless it is pinned already (the first worker that takes it
   * decides), and returns the build it is pinned to; `undefined` when the run has no record or
   * already ended (it is left where it is).
   */
  async pin(runId: string, buildId: string): Promise<string | undefined> {
    const { record } = runKeys(this.#prefix, runId);
    const reply = await pinRunScript.run(this.#redis, [record], [buildId]);
    return typeof reply === 'string' && reply !== '' ? reply : undefined;
  }

  /**
   * Marks a run parked at the waiting gate: `queued`, with what it waits for. `false` when the
   * run already ended (it must not be parked then).
   */
  async park(runId: string, waitingFor: WaitingFor): Promise<boolean> {
    const { record } = runKeys(this.#prefix, runId);
    const reply = await parkRunScript.run(this.#redis, [record], [JSON.stringify(waitingFor)]);
    if (!Array.isArray(reply)) return false;
    const agentId = String(reply[1] ?? '');
    await this.#countWait(() => this.waiting.enter(runId, { kind: waitingFor.kind, agentId }));
    return true;
  }

  /**
   * Says on a running run's record what it waits for inside its execution (`undefined` clears
   * it): a model call waiting for its fleet-wide rate limit budget. `false` when the run is not
   * running. The run counts as waiting for that kind (the waiting-runs gauge) until it is cleared.
   * @throws AttemptSupersededError when a newer attempt than `attempt` owns the run
   */
  async markWaiting(runId: string, waitingFor: WaitingFor | undefined, attempt = ''): Promise<boolean> {
    const { record } = runKeys(this.#prefix, runId);
    const text = waitingFor === undefined ? '' : JSON.stringify(waitingFor);
    const reply = await markWaitingScript.run(this.#redis, [record], [text, attempt]);
    if (reply === ATTEMPT_SUPERSEDED) throw new AttemptSupersededError(runId, 'a wait on its record');
    if (!Array.isArray(reply)) return false;
    const agentId = String(reply[1] ?? '');
    await this.#countWait(() =>
      waitingFor === undefined
        ? this.waiting.leave(runId)
        : this.waiting.enter(runId, { kind: waitingFor.kind, agentId }),
    );
    return true;
  }

  /**
   * Marks a queued run whose agent no live worker serves: `waitingFor: { kind: 'worker' }`
   * until a worker starts it. `false` when the run is not queued or already waits for something.
   */
  async markUnserved(runId: string, agentId: string): Promise<boolean> {
    const { record } = runKeys(this.#prefix, runId);
    const waitingFor: WaitingFor = { kind: 'worker', detail: agentId };
    const marked = (await markUnservedScript.run(this.#redis, [record], [JSON.stringify(waitingFor)])) === 1;
    if (marked) await this.#countWait(() => this.waiting.enter(runId, { kind: 'worker', agentId }));
    return marked;
  }

  /**
   * The count of waiting runs follows the records (the truth, written first); a failed count
   * write must not fail the run's transition: `WaitingRuns.prune` repairs what it left.
   */
  async #countWait(write: () => Promise<void>): Promise<void> {
    try {
      await write();
    } catch {
      // ignored: see above
    }
  }

  /** What the run's record says it waits for now, for `WaitingRuns.prune`. */
  readonly currentWait: CurrentWait = async (runId) => {
    const [status, waitingFor, agentId] = await this.#redis.hmget(
      runKeys(this.#prefix, runId).record,
      'status',
      'waitingFor',
      'agentId',
    );
    // Parked runs are queued; runs suspended on a durable wait are waiting (with a waitingFor);
    // running runs waiting inside their execution (`markWaiting`: a rate limit) are running.
    if (waitingFor === null || (status !== 'queued' && status !== 'waiting' && status !== 'running'))
      return undefined;
    const kind = parseOr(waitingFor, z.object({ kind: z.string().max(200) }))?.kind;
    return kind === undefined ? undefined : { kind, agentId: agentId ?? '' };
  };

  /**
   * Ends the run with `ending` and appends its `run-end` event (from `callPath`, the root
   * invocation), unless it already ended, then replaces its event stream by the compacted
   * timeline (`events/run-timeline.ts`; readers that were blocked on the stream got `run-end`
   * first). Returns `true` when this call ended it. Flush the run's other events first (or pass them as `events`), so `run-end`
   * is the last event of the stream. `carried`: the record's totals from this execution's
   * `start` (saves reading them again). @default read from the record
   * `attempt`: the ending attempt's token; @default none (a cancel, the stalled-job handler)
   * `events`: the attempt's events not written yet (serialized, `RedisRunEventSink.drain`),
   * appended ahead of `run-end` in the same script. @default none
   * `written`: every event already in the stream, with their ids (`RedisRunEventSink.written`):
   * the script then stores the timeline itself, without sending the stream back (one round trip
   * and the stream's read saved); @default none: the stream is read back and compacted after
   * The run's memory is deleted and its children set gets the record's retention in the same
   * script when this call ends the run (ARCHITECTURE.md §5); `cleanUp`: even when the run had
   * ended already (a worker ending its own run, after a cancel ended it). @default false
   * `firstExecution`: the attempt's first start was the run's first (`RunStart.firstExecution`),
   * so its stream holds exactly `written`: the script compacts without checking it. @default false
   * `records`: the attempt's journal entries not written yet (`RunWriteBatch.drain`: position,
   * entry JSON, …), recorded in the same script (even when the run had ended). @default none
   * @throws AttemptSupersededError when a newer attempt than `attempt` owns the run
   */
  async finish(
    runId: string,
    callPath: string,
    execution: RunEnding,
    carried?: RunTotals,
    attempt?: string,
    events?: readonly string[],
    written?: WrittenEvents,
    cleanUp?: boolean,
    records?: readonly string[],
    firstExecution?: boolean,
  ): Promise<boolean> {
    // Earlier executions that suspended carried their usage in the record.
    const prior = carried ?? (await this.#totals(runKeys(this.#prefix, runId).record));
    const ending = { ...execution, ...sumTotals(prior, execution) };
    const event: RunEndEvent = {
      type: 'run-end',
      runId,
      at: Date.now(),
      callPath,
      status: ending.status,
      usage: ending.usage,
      modelCalls: ending.modelCalls,
    };
    // `null` as the record says it: a run-end with `output` is one result() can settle on.
    if (ending.status === 'succeeded') event.output = ending.output ?? null;
    if (ending.error) event.error = ending.error;
    const outcome = endingOutcome(ending);
    const eventText = runEndText(event);
    const timeline =
      written &&
      this.#splitTimeline(runId, written, events ?? [], eventText, outcome, firstExecution === true);
    const keys = runKeys(this.#prefix, runId);
    const call = finishRunArgs(keys, ending, event, {
      eventStreamMaxLength: this.#eventStreamMaxLength,
      retention: this.#retention,
      eventText,
      ...(attempt !== undefined && { attempt }),
      ...(events !== undefined && { events }),
      ...(timeline !== undefined && { timeline }),
      ...(cleanUp && { cleanUp }),
      ...(records !== undefined && records.length > 0 && { records }),
      // A cluster's readers wait for the sharded notice below instead.
      ...(!this.#redis.isCluster && { endChannel: runEndChannel(keys.events) }),
    });
    const reply = await finishRunScript.run(this.#redis, call.keys, call.args);
    if (reply === ATTEMPT_SUPERSEDED) throw new AttemptSupersededError(runId, "the run's end");
    if (reply !== 1 && !Array.isArray(reply)) return false;
    publishEventNotice(this.#redis, call.keys[1] as string);
    // An attempt's start cleared its waitingFor already; a cancel or deadline may end a waiting run.
    if (attempt === undefined) await this.#countWait(() => this.waiting.leave(runId));
    if (Array.isArray(reply))
      await this.#compact(runId, parseStreamEntries(reply as [string, string[]][]), outcome);
    return true;
  }

  /**
   * The timeline of a run whose stream holds `written` only, split for `finish-run-12` to
   * complete with the ids of the events it appends (`pending`, then `run-end`), from the texts
   * written (not parsed again); `undefined` when it cannot be (an event not a JSON object, or its
   * `at` not an integer): compacted from the stream.
   */
  #splitTimeline(
    runId: string,
    written: WrittenEvents,
    pending: readonly string[],
    runEnd: string,
    outcome: RunEndOutcome,
    whole: boolean,
  ): FinishTimeline | undefined {
    try {
      const split = encodeSplitRunTimeline(runId, written, [...pending, runEnd], outcome);
      if (split === undefined) return undefined;
      return {
        head: split.head,
        streamLength: written.ids.length,
        lastId: written.ids.at(-1) ?? '',
        previousMs: split.previousMs,
        graceMs: COMPACTED_STREAM_GRACE_MS,
        whole,
        tails: split.tails,
        ats: split.ats,
      };
    } catch {
      return undefined;
    }
  }

  /** Compaction is storage, not outcome: when it fails the stream stays, expiring with the record. */
  async #compact(runId: string, events: StreamedRunEvent[], outcome: RunEndOutcome): Promise<void> {
    const last = events.at(-1);
    if (last?.type !== 'run-end') return;
    const keys = runKeys(this.#prefix, runId);
    try {
      const timeline = encodeRunTimeline(runId, events, outcome);
      const args = [last.eventId, timeline, this.#retention.recordSeconds, COMPACTED_STREAM_GRACE_MS];
      await compactEventsScript.run(this.#redis, [keys.events, keys.timeline], args);
    } catch {
      // The run ended all the same; its stream stays readable and expires with the record.
    }
  }

  /**
   * A finished run's events from its compacted timeline, with their original `eventId`s, or
   * `undefined` when it has none (unfinished, not compacted, or expired).
   */
  async compactedEvents(runId: string): Promise<StreamedRunEvent[] | undefined> {
    const keys = runKeys(this.#prefix, runId);
    const [[, text], [, fields]] = (await this.#redis
      .pipeline()
      .get(keys.timeline)
      .hgetall(keys.record)
      .exec()) as [[unknown, string | null], [unknown, Record<string, string>]];
    if (typeof text !== 'string' || !fields?.status) return undefined;
    const record = toRecord(runId, fields);
    return decodeRunTimeline(runId, text, isTerminalStatus(record.status) ? outcomeOf(record) : undefined);
  }

  /**
   * Marks the run `waiting` (suspended on child runs, or on durable waits: `execution.suspended.waits`,
   * which set `waitingFor` and `waits`), stores the positions of the steps it suspended on
   * (`execution.suspended.pendingSteps`, loaded with its journal) and adds this execution's usage to
   * the totals the record carries; `false` when the run had already ended (e.g. cancelled).
   * `carried`: the record's totals from this execution's `start` (saves reading them again).
   * @default read from the record. `attempt`: the suspending attempt's token. @default none
   * `writes`: the execution's journal entries and events not written yet (`RunWriteBatch.drain`),
   * written in the same script (the entries even when the run had ended, the events only when
   * it suspends); `onEventsWritten` gets the stream ids of the events. @default none
   * @throws AttemptSupersededError when a newer attempt than `attempt` owns the run
   * @throws TooManyPendingStepsError past `MAX_PENDING_STEPS` pending steps
   */
  async suspend(
    runId: string,
    execution: {
      usage: TokenUsage;
      modelCalls: number;
      suspended?: { waits?: ParkedWait[]; pendingSteps?: string[] };
    },
    carried?: RunTotals,
    attempt?: string,
    writes?: DrainedWrites & { onEventsWritten?: (ids: string[]) => void },
  ): Promise<boolean> {
    // Only the run's own execution writes its totals, so `carried` is still what the record holds.
    const prior = carried ?? (await this.#totals(runKeys(this.#prefix, runId).record));
    const totals = sumTotals(prior, execution);
    const waits = execution.suspended?.waits;
    const pendingSteps = execution.suspended?.pendingSteps;
    const call = suspendRunArgs(runKeys(this.#prefix, runId), totals, Date.now(), attempt, {
      runId,
      ...(waits && { waits }),
      ...(pendingSteps && { pendingSteps }),
      ...(writes && { writes: { ...writes, eventStreamMaxLength: this.#eventStreamMaxLength } }),
    });
    const reply = await suspendRunScript.run(this.#redis, call.keys, call.args);
    if (reply === ATTEMPT_SUPERSEDED) throw new AttemptSupersededError(runId, 'a suspension');
    if (!Array.isArray(reply)) return false;
    // A durable wait sets waitingFor like a park does, so the run counts as waiting for its kind.
    const [, agentId, cleared, ids] = reply as [number, string, number, string[]];
    if (ids.length > 0) {
      publishEventNotice(this.#redis, call.keys[2] as string);
      writes?.onEventsWritten?.(ids);
    }
    const waitingFor = summarizeWaits(waits ?? []);
    if (waitingFor)
      await this.#countWait(() =>
        this.waiting.enter(runId, { kind: waitingFor.kind, agentId: String(agentId) }),
      );
    else if (cleared === 1) await this.#countWait(() => this.waiting.leave(runId));
    return true;
  }

  /**
   * How often something the run waits for arrived (signals, approvals, `addWake`): a worker
   * reads it before an execution and again after parking it, to replay at once when it changed
   * (`worker/park-until-woken.ts`).
   */
  async wakes(runId: string): Promise<number> {
    return Number((await this.#redis.hget(runKeys(this.#prefix, runId).record, 'wakes')) ?? 0);
  }

  /**
   * Counts a wake-up of a parked run (then promote its job: `waits/wake-run.ts`). Scripts that
   * store what a run waits for (a signal, an approval) count it themselves, in the same step.
   */
  async addWake(runId: string): Promise<void> {
    await wakeRunScript.run(this.#redis, [runKeys(this.#prefix, runId).record], []);
  }

  /**
   * Stores `progress` (JSON text) as the run's latest progress; `false` when the run ended.
   * @throws AttemptSupersededError when a newer attempt than `attempt` owns the run
   */
  async recordProgress(runId: string, progress: string, attempt = ''): Promise<boolean> {
    const { record } = runKeys(this.#prefix, runId);
    const reply = await recordProgressScript.run(this.#redis, [record], [progress, attempt]);
    if (reply === ATTEMPT_SUPERSEDED) throw new AttemptSupersededError(runId, 'a progress report');
    return reply === 1;
  }

  /**
   * Whether `attempt` still owns the run (or no attempt token is recorded), for the rare
   * decisions a stale attempt must not take that write no run key (handing its job to BullMQ's
   * retry). Every write is fenced in its own script instead.
   */
  async ownedBy(runId: string, attempt: string): Promise<boolean> {
    const owner = await this.#redis.hget(runKeys(this.#prefix, runId).record, 'attempt');
    return owner === null || owner === attempt;
  }

  /**
   * Leaves the trace mark of attempt `attempt`'s run span (`mark`, JSON) on the record and
   * returns the one an earlier attempt left, if any (`worker/attempt-trace.ts`).
   * @throws AttemptSupersededError when a newer attempt owns the run
   */
  async swapAttemptTrace(runId: string, mark: string, attempt: string): Promise<string | undefined> {
    const { record } = runKeys(this.#prefix, runId);
    const reply = await swapAttemptTraceScript.run(this.#redis, [record], [mark, attempt]);
    if (reply === ATTEMPT_SUPERSEDED) throw new AttemptSupersededError(runId, 'its trace mark');
    return typeof reply === 'string' ? reply : undefined;
  }

  /** Removes `mark` (an attempt's run span ended) unless a newer attempt's replaced it. */
  async clearAttemptTrace(runId: string, mark: string): Promise<void> {
    await clearAttemptTraceScript.run(this.#redis, [runKeys(this.#prefix, runId).record], [mark]);
  }

  /** The totals the record (`recordKey`) carries; none yet when it has no usage. */
  async #totals(recordKey: string): Promise<RunTotals> {
    const [usage, modelCalls] = await this.#redis.hmget(recordKey, 'usage', 'modelCalls');
    return totalsOf(usage, modelCalls);
  }

  /** The run's record, or `undefined` when there is none (never submitted, or expired). */
  async get(runId: string): Promise<RunRecord | undefined> {
    const fields = await this.#redis.hgetall(runKeys(this.#prefix, runId).record);
    if (!fields.status) return undefined;
    return toRecord(runId, fields);
  }
}

/** The totals of a record's `usage` and `modelCalls` fields (none yet when it has no usage). */
function totalsOf(usage: string | null | undefined, modelCalls: string | null | undefined): RunTotals {
  return {
    usage: parseOr(usage ?? undefined, usageSchema) ?? emptyUsage(),
    modelCalls: Number(modelCalls ?? 0),
  };
}

/**
 * What the record `finish-run-12` writes for `ending` says of the run's end, as `get` reads it
 * back (`outcomeOf(toRecord(…))` of its fields), for the timeline's `run-end`: only the outcome's
 * fields, and the usage our own code summed without its schema when it is three plain counts.
 */
function endingOutcome(ending: RunEnding): RunEndOutcome {
  const outcome: RunEndOutcome = {
    status: ending.status as RunEndOutcome['status'],
    usage: storedUsage(ending.usage),
    modelCalls: Number(String(ending.modelCalls)),
  };
  if (ending.status === 'succeeded') outcome.output = JSON.parse(JSON.stringify(ending.output ?? null));
  if (ending.error) {
    const error = parseOr(JSON.stringify(ending.error), errorSchema);
    if (error) outcome.error = error as SerializedError;
  }
  return outcome;
}

/** `usage` as the record's `usage` field reads back (`toRecord`). */
function storedUsage(usage: TokenUsage): TokenUsage {
  const { promptTokens, completionTokens, totalTokens } = usage;
  if (
    Object.getPrototypeOf(usage) === Object.prototype &&
    Object.keys(usage).length === 3 &&
    isPlainCount(promptTokens) &&
    isPlainCount(completionTokens) &&
    isPlainCount(totalTokens)
  )
    return { promptTokens, completionTokens, totalTokens };
  return parseOr(JSON.stringify(usage), usageSchema) ?? emptyUsage();
}

/** A number that reads back from its JSON as itself (not NaN, ±Infinity or -0). */
function isPlainCount(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value) && !Object.is(value, -0);
}

/** What the record says of a run's end, as its `run-end` event says it. */
function outcomeOf(record: RunRecord): RunEndOutcome {
  const outcome: RunEndOutcome = {
    status: record.status as RunEndOutcome['status'],
    usage: record.usage,
    modelCalls: record.modelCalls,
  };
  if (record.status === 'succeeded') outcome.output = record.output;
  if (record.error) outcome.error = record.error;
  return outcome;
}

function sumTotals(prior: RunTotals, execution: RunTotals): RunTotals {
  return {
    usage: addUsage(prior.usage, execution.usage),
    modelCalls: prior.modelCalls + execution.modelCalls,
  };
}

function toRecord(runId: string, fields: Record<string, string>): RunRecord {
  const record: RunRecord = {
    runId,
    agentId: fields.agentId ?? '',
    status: fields.status as RunStatus,
    usage: parseOr(fields.usage, usageSchema) ?? emptyUsage(),
    modelCalls: Number(fields.modelCalls ?? 0),
    attempts: Number(fields.attempts ?? 0),
    createdAt: Number(fields.createdAt ?? 0),
  };
  if (fields.tenant) record.tenant = fields.tenant;
  if (fields.conversationId) record.conversationId = fields.conversationId;
  if (fields.scheduleId) record.scheduleId = fields.scheduleId;
  const waitingFor = parseOr(fields.waitingFor, waitingForSchema);
  if (waitingFor) record.waitingFor = waitingFor;
  const waits = parseOr(fields.waits, parkedWaitsSchema);
  if (waits && waits.length > 0) record.waits = waits as ParkedWait[];
  if (fields.parentRunId) record.parentRunId = fields.parentRunId;
  if (fields.rootRunId) record.rootRunId = fields.rootRunId;
  if (fields.callPath) record.callPath = fields.callPath;
  if (fields.fingerprint) record.fingerprint = fields.fingerprint;
  if (fields.buildId) record.buildId = fields.buildId;
  if (fields.pinnedBuild) record.pinnedBuild = fields.pinnedBuild;
  if (fields.output !== undefined) record.output = JSON.parse(fields.output);
  if (fields.progress !== undefined) record.progress = parseOr(fields.progress, z.unknown());
  const error = parseOr(fields.error, errorSchema);
  if (error) record.error = error as SerializedError;
  if (fields.startedAt) record.startedAt = Number(fields.startedAt);
  if (fields.endedAt) record.endedAt = Number(fields.endedAt);
  return record;
}

function parseOr<T>(text: string | undefined, schema: z.ZodType<T>): T | undefined {
  if (text === undefined) return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
