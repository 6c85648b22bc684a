/**
 * Pure argument builders of the run record scripts (`create-run-2`, `start-run-5`,
 * `suspend-run-3`, `finish-run-12`), testable without Redis.
 */
import type { TokenUsage } from '@flotilla/ir';
import type { SerializedError } from '../errors/serialize-error.js';
import type { RunEndEvent } from '../events/run-event.js';
import { type ParkedWait, summarizeWaits } from '../gate/waiting-for.js';
import type { RunKeys } from '../keys.js';
import { encodePendingSteps } from './pending-steps.js';
import type { TerminalRunStatus } from './run-status.js';

/** KEYS and ARGV of one script call. */
export interface RunScriptCall {
  keys: string[];
  args: string[];
}

/** A run to create: a root run, or a child run with its place in the tree. */
export interface NewRun {
  runId: string;
  agentId: string;
  conversationId?: string | undefined;
  parentRunId?: string | undefined;
  rootRunId?: string | undefined;
  callPath?: string | undefined;
  fingerprint?: string | undefined;
  /** The tenant whose run it is (its stored ids are qualified by it). */
  tenant?: string | undefined;
  /** For a submitted run: the hash of its whole submission (`client/submission-hash.ts`). */
  submissionHash?: string | undefined;
  /** For a schedule's firing: the stored schedule id. */
  scheduleId?: string | undefined;
  /** For a child run of a pinned run: the build it is pinned to (its parent's). */
  pinnedBuild?: string | undefined;
}

export function createRunArgs(keys: RunKeys, run: NewRun, now: number): RunScriptCall {
  const child =
    run.parentRunId === undefined
      ? []
      : [
          run.parentRunId,
          run.rootRunId ?? '',
          run.callPath ?? '',
          run.fingerprint ?? '',
          run.pinnedBuild ?? '',
        ];
  return {
    keys: [keys.record],
    args: [
      run.runId,
      run.agentId,
      run.conversationId ?? '',
      String(now),
      run.tenant ?? '',
      run.submissionHash ?? '',
      run.scheduleId ?? '',
      ...child,
    ],
  };
}

/** What an execution wrote last and had not sent when it suspended (`RunWriteBatch.drain`). */
export interface SuspensionWrites {
  /** Journal entries: position, entry JSON, … */
  records: readonly string[];
  /** Events (JSON), in emit order. */
  events: readonly string[];
  /** The events' stream max length (approximate). */
  eventStreamMaxLength: number;
}

/**
 * KEYS and ARGV of `suspend-run-3`: the run's usage totals after this execution's share, the
 * suspending attempt's token (`''`: not fenced), its durable waits (none: child runs only), the
 * journal positions of the steps it suspended on (`runId` names the run in the error), and the
 * execution's writes not sent yet (`RunWriteBatch.drain`), written in the same script.
 * @throws TooManyPendingStepsError past `MAX_PENDING_STEPS` positions
 */
export function suspendRunArgs(
  keys: RunKeys,
  totals: { usage: TokenUsage; modelCalls: number },
  now: number,
  attempt = '',
  suspension: {
    waits?: readonly ParkedWait[];
    pendingSteps?: readonly string[];
    runId?: string;
    /** The execution's writes not sent yet. @default none */
    writes?: SuspensionWrites;
  } = {},
): RunScriptCall {
  const waits = suspension.waits ?? [];
  const waitingFor = summarizeWaits(waits);
  const { records = [], events = [], eventStreamMaxLength = 0 } = suspension.writes ?? {};
  return {
    keys: [keys.record, keys.journal, keys.events],
    args: [
      JSON.stringify(totals.usage),
      String(totals.modelCalls),
      String(now),
      attempt,
      waitingFor ? JSON.stringify(waitingFor) : '',
      waitingFor ? JSON.stringify(waits) : '',
      encodePendingSteps(suspension.runId ?? '', suspension.pendingSteps ?? []),
      String(eventStreamMaxLength),
      String(records.length / 2),
      ...records,
      ...events,
    ],
  };
}

/** A run an attempt starts, or (`continuing`) goes on with after it suspended. */
export interface RunToStart {
  runId: string;
  agentId: string;
  /** The attempt's token (see `worker/run-attempt.ts`); the record takes it. @default '' */
  attempt?: string;
  /** The attempt goes on after suspending itself: refused when a newer one owns the run. @default false */
  continuing?: boolean;
  /** The build of the starting worker: the record keeps the first one (`RunRecord.buildId`). @default none */
  buildId?: string | undefined;
  /**
   * Send back the journal (with the pending steps) and the memory of `callPath` (the root
   * invocation), each when it holds at most `maxFields` fields (`RunStart.preloaded`). @default none
   */
  preload?: { callPath: string; maxFields: number } | undefined;
}

export function startRunArgs(keys: RunKeys, run: RunToStart, now: number): RunScriptCall {
  return {
    keys: [keys.record, keys.cancel, keys.journal, keys.memoryOf(run.preload?.callPath ?? '')],
    args: [
      run.runId,
      run.agentId,
      String(now),
      run.attempt ?? '',
      run.continuing ? '1' : '0',
      run.buildId ?? '',
      String(run.preload?.maxFields ?? 0),
    ],
  };
}

/** How a run ended, as the worker, a cancel or the stalled-job handler reports it. */
export interface RunEnding {
  status: TerminalRunStatus;
  output?: unknown;
  error?: SerializedError;
  usage: TokenUsage;
  modelCalls: number;
}

/** How long ended runs are kept, in seconds. */
export interface RunRetention {
  /** Run record, event stream and cancel flag. */
  recordSeconds: number;
  /** Journal (kept for debugging; memory is deleted at once). */
  journalSeconds: number;
}

export function finishRunArgs(
  keys: RunKeys,
  ending: RunEnding,
  event: RunEndEvent,
  options: {
    eventStreamMaxLength: number;
    retention: RunRetention;
    /** The ending attempt's token; `''` for a cancel or the stalled-job handler. @default '' */
    attempt?: string;
    /** The attempt's events not written yet (serialized), appended ahead of `run-end`. @default none */
    events?: readonly string[];
    /** The attempt's journal entries not written yet: position, entry JSON, … @default none */
    records?: readonly string[];
    /** `run-end` as JSON (when the caller has it already). @default `JSON.stringify(event)` */
    eventText?: string;
    /** The timeline to complete and store in the script (see its header). @default none */
    timeline?: FinishTimeline;
    /**
     * Delete the run's memory and give its children set retention even when the run had ended
     * already (a worker's own end). Without it the script cleans up only when this call ends
     * the run (a cancel, a deadline, the stalled-job handler). @default false
     */
    cleanUp?: boolean;
    /** The channel the script publishes the run's end on (`runEndChannel`). @default none */
    endChannel?: string;
  },
): RunScriptCall {
  const output = ending.status === 'succeeded' ? JSON.stringify(ending.output ?? null) : '';
  const events = options.events ?? [];
  const args = [
    ending.status,
    String(event.at),
    output,
    ending.error === undefined ? '' : JSON.stringify(ending.error),
    JSON.stringify(ending.usage),
    String(ending.modelCalls),
    options.eventText ?? JSON.stringify(event),
    String(options.eventStreamMaxLength),
    String(options.retention.recordSeconds),
    String(options.retention.journalSeconds),
    options.attempt ?? '',
    keys.memoryOf(''),
    options.cleanUp ? '1' : '0',
    options.endChannel ?? '',
    String((options.records?.length ?? 0) / 2),
    ...(options.records ?? []),
    String(events.length),
    ...events,
  ];
  const timeline = options.timeline;
  if (timeline === undefined) args.push('');
  else {
    args.push(
      timeline.head,
      String(timeline.streamLength),
      timeline.lastId,
      String(timeline.previousMs),
      String(timeline.graceMs),
      timeline.whole ? '1' : '0',
    );
    for (const [index, tail] of timeline.tails.entries()) args.push(String(timeline.ats[index]), tail);
  }
  return {
    keys: [
      keys.record,
      keys.events,
      keys.journal,
      keys.cancel,
      keys.timeline,
      keys.children,
      keys.memoryIndex,
    ],
    args,
  };
}

/**
 * A run's timeline split where the stream ids the worker does not know yet begin, for
 * `finish-run-12` to complete (`events/run-timeline.ts`, `encodeSplitRunTimeline`).
 */
export interface FinishTimeline {
  head: string;
  /** The stream's length, and its last id, that `head` covers (`''` when empty). */
  streamLength: number;
  lastId: string;
  previousMs: number;
  /** How long the stream stays readable once compacted. */
  graceMs: number;
  /**
   * The stream holds exactly the events `head` covers (the run's first execution wrote them
   * all): the script does not check it. @default false: checked
   */
  whole?: boolean;
  /** Of each event the script appends (the pending ones, then `run-end`): its entry's tail, its `at`. */
  tails: readonly string[];
  ats: readonly number[];
}
