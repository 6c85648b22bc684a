/**
 * Events a run publishes while it executes. Names are noun-verb (`model-turn-end`), a
 * lifecycle ends with `end`. Every event carries the run id, the time it happened and the
 * `callPath` of the agent invocation that emitted it (e.g. `root/agent:writer:0`).
 *
 * A worker writes them to a capped Redis stream per run, compacted into one timeline string
 * when the run ends (`run-timeline.ts`); `RunHandle.events()` yields them live, then from it.
 */

import type { FinishReason, TokenUsage } from '@flotilla/ir';
import type { SerializedError } from '../errors/serialize-error.js';
import type { WaitingFor } from '../gate/waiting-for.js';
import type { UsageStats } from '../usage/usage-stats.js';

/** Fields shared by every {@link RunEvent}. */
export interface RunEventBase {
  runId: string;
  /** Epoch milliseconds. */
  at: number;
  /** The agent invocation that emitted the event. */
  callPath: string;
}

/** The run began executing (also on every replay after a crash or resume). */
export interface RunStartEvent extends RunEventBase {
  type: 'run-start';
  agentId: string;
  input: unknown;
}

/**
 * The run finished; `usage` and `modelCalls` count live (not replayed) model turns. `output`
 * (succeeded) or `error` is what the run record holds, unless `outcomeInRecord` is set: it was
 * too large to repeat in the event, read it from the record (`RunHandle.events()` does).
 */
export interface RunEndEvent extends RunEventBase {
  type: 'run-end';
  status: 'succeeded' | 'failed' | 'cancelled';
  output?: unknown;
  error?: SerializedError;
  usage: TokenUsage;
  modelCalls: number;
  outcomeInRecord?: true;
}

/** One execution of an agent's handler started (generation 0, then one per reborn). */
export interface GenerationStartEvent extends RunEventBase {
  type: 'generation-start';
  agentId: string;
  generation: number;
}

/** A generation ended: the handler returned, returned `reborn()`, or threw. */
export interface GenerationEndEvent extends RunEventBase {
  type: 'generation-end';
  agentId: string;
  generation: number;
  endReason: 'return' | 'reborn' | 'error';
}

/** A model turn is about to be served (live or from the journal). */
export interface ModelTurnStartEvent extends RunEventBase {
  type: 'model-turn-start';
  /** The journal position of the turn. */
  position: string;
  turnIndex: number;
  modelId: string;
  provider: string;
}

/** A model turn ended; `replayed` is true when the journal answered and no model was called. */
export interface ModelTurnEndEvent extends RunEventBase {
  type: 'model-turn-end';
  position: string;
  turnIndex: number;
  usage: TokenUsage;
  finishReason: FinishReason;
  replayed: boolean;
}

/** The model asked for a tool. */
export interface ToolCallEvent extends RunEventBase {
  type: 'tool-call';
  name: string;
  args: unknown;
  toolCallId: string;
}

/** A tool finished; failures are returned to the model, so `ok: false` does not fail the run. */
export interface ToolResultEvent extends RunEventBase {
  type: 'tool-result';
  name: string;
  toolCallId: string;
  ok: boolean;
  result?: unknown;
  error?: SerializedError;
  replayed: boolean;
}

/** The handler returned `reborn()`; `generation` is the one about to start. */
export interface RebornEvent extends RunEventBase {
  type: 'reborn';
  agentId: string;
  generation: number;
}

/** A child agent invocation began; `callPath` is the parent's, `childCallPath` the child's. */
export interface ChildStartEvent extends RunEventBase {
  type: 'child-start';
  agentId: string;
  childCallPath: string;
  /** The child's own run, when it runs as a child job on a worker (its events are there). */
  childRunId?: string;
}

/** A child agent invocation settled. */
export interface ChildEndEvent extends RunEventBase {
  type: 'child-end';
  agentId: string;
  childCallPath: string;
  ok: boolean;
  replayed: boolean;
  error?: SerializedError;
  /** The child's own run, when it ran as a child job on a worker. */
  childRunId?: string;
}

/**
 * Every durable operation of the execution waits on child runs: the run gave its worker slot
 * back and replays (on any worker) when they end. `usage` / `modelCalls` are this execution's.
 */
export interface RunSuspendedEvent extends RunEventBase {
  type: 'run-suspended';
  /** Run ids of the child runs waited on. */
  pendingChildren: string[];
  /** What else the run waits for (approvals, signals, sleeps). @default none */
  waitingFor?: WaitingFor[];
  usage: TokenUsage;
  modelCalls: number;
}

/**
 * The run reported progress (`reportProgress(value)` in a handler or a tool); the latest value
 * is also on the run's record and in its tree. Emitted once per call: a replay does not emit
 * the calls it passes again.
 */
export interface ProgressEvent extends RunEventBase {
  type: 'progress';
  /** What the run reported (JSON, at most `MAX_PROGRESS_BYTES`). */
  value: unknown;
}

/**
 * The context budget (`equipContextBudget`) brought a prompt under `maxPromptTokens` by
 * summarising older turns; on a stored conversation the result was written as a new base
 * (`version`). `replayed`: the summary came from the journal (no summariser was called).
 */
export interface ContextCompactedEvent extends RunEventBase {
  type: 'context-compacted';
  tokensBefore: number;
  tokensAfter: number;
  turnsSummarised: number;
  messagesSummarised: number;
  /** The base version written to the stored conversation, when there is one. */
  version?: number;
  replayed: boolean;
}

/**
 * A summary failed (the summariser threw, answered nothing, or the result was still over
 * budget). After the third, `circuitOpen` is true and the run fails with
 * `ContextBudgetExceededError` instead of sending an oversized prompt.
 */
export interface ContextCompactionFailedEvent extends RunEventBase {
  type: 'context-compaction-failed';
  /** 1, 2 or 3. */
  attempt: number;
  error: SerializedError;
  circuitOpen: boolean;
}

/** A tool result over `offloadToolResultsOver` characters was stored as a blob and replaced by a stub. */
export interface ToolOutputOffloadedEvent extends RunEventBase {
  type: 'tool-output-offloaded';
  name: string;
  toolCallId: string;
  /** The id `read_offloaded_output` takes (the sha256 of the output). */
  outputId: string;
  /** Length of the whole output, in characters. */
  chars: number;
}

/**
 * A model call waits for its provider/model's fleet-wide rate limit budget (`limits`) before it
 * goes: `reason` `limit` (the rpm / tpm spacing) or `retry-after` (a 429 paused the budget for
 * the whole fleet). The run is not failing; its record shows `waitingFor: { kind: 'rate-limit' }`
 * while a longer wait lasts.
 */
export interface RateLimitWaitEvent extends RunEventBase {
  type: 'rate-limit-wait';
  provider: string;
  modelId: string;
  waitMs: number;
  reason: 'limit' | 'retry-after';
}

/**
 * A tool call needs a person's approval (`equipTool(tool, { needsApproval })`): the run waits
 * (no slot held) until `client.approve(runId, toolCallId, …)`. Emitted once per call.
 */
export interface ApprovalRequestedEvent extends RunEventBase {
  type: 'approval-requested';
  toolCallId: string;
  tool: string;
  args: unknown;
}

/** The run went on with a person's answer to an approval (emitted once, when the run takes it). */
export interface ApprovalResolvedEvent extends RunEventBase {
  type: 'approval-resolved';
  toolCallId: string;
  tool: string;
  approved: boolean;
  /** Set when the person replaced the model's arguments. */
  args?: unknown;
  reason?: string;
}

/** A `waitForSignal` took a signal (emitted once, when the run takes it; a replay does not again). */
export interface SignalReceivedEvent extends RunEventBase {
  type: 'signal-received';
  name: string;
  signalId: string;
  payload: unknown;
}

/**
 * Usage was recorded in an agent invocation (`equipBudget`, `getUsageStats`): a live model call
 * (a summary of the context budget too), a `recordToolUsage` record, or a finished child run's
 * usage adopted by its parent. Once per record; replays emit none. `own` and `aggregate` are
 * the recording invocation's totals after it.
 */
export interface BudgetUpdateEvent extends RunEventBase {
  type: 'budget-update';
  delta: UsageStats;
  own: UsageStats;
  aggregate: UsageStats;
}

/** A durable `sleep` began: the run holds no slot until `until` (epoch ms). */
export interface SleepStartedEvent extends RunEventBase {
  type: 'sleep-started';
  until: number;
}

/** Every event a run publishes, discriminated by `type`. */
export type RunEvent =
  | RunStartEvent
  | RunEndEvent
  | GenerationStartEvent
  | GenerationEndEvent
  | ModelTurnStartEvent
  | ModelTurnEndEvent
  | ToolCallEvent
  | ToolResultEvent
  | RebornEvent
  | ChildStartEvent
  | ChildEndEvent
  | RunSuspendedEvent
  | ProgressEvent
  | ContextCompactedEvent
  | ContextCompactionFailedEvent
  | ToolOutputOffloadedEvent
  | ApprovalRequestedEvent
  | ApprovalResolvedEvent
  | SignalReceivedEvent
  | SleepStartedEvent
  | RateLimitWaitEvent
  | BudgetUpdateEvent;

/** The `type` of every {@link RunEvent}. */
export type RunEventType = RunEvent['type'];

/** The event of one `type`, e.g. `RunEventOf<'tool-call'>`. */
export type RunEventOf<T extends RunEventType> = Extract<RunEvent, { type: T }>;

/** What an emitter supplies: the event without the fields the engine stamps (`runId`, `at`). */
export type RunEventInput = RunEvent extends infer E
  ? E extends RunEvent
    ? Omit<E, 'runId' | 'at'>
    : never
  : never;

/** Where run events go. `emit` never blocks the run; `flush` waits for everything emitted so far. */
export interface RunEventSink {
  emit(event: RunEvent): void;
  flush(): Promise<void>;
}
