/**
 * Everything the engine needs from the outside world to execute one run: where to journal
 * durable effects, where agent memory lives, the conversation store, the event sink, the
 * model registry and the cancel signal. The worker (H4b) builds Redis-backed services; embedded
 * mode builds in-memory ones. The engine never touches Redis directly.
 */

import type { TokenUsage } from '@flotilla/ir';
import type { Logger } from 'pino';
import type { OffloadedOutputs } from '../budget/offloaded-outputs.js';
import type { NonDeterminismError } from '../errors/run-errors.js';
import type { RunEventSink } from '../events/run-event.js';
import type { ParkedWait } from '../gate/waiting-for.js';
import type { JsonLimits } from '../json/json-bounds.js';
import type { RunModelBudgets } from '../limits/fleet-model-budgets.js';
import type { FleetMemo } from '../memo/fleet-memo.js';
import type { ModelAdapter } from '../model/model-adapter.js';
import type { RunResources } from '../resources/run-resources.js';
import type { ConversationStore } from '../store/conversation-store.js';
import type { PriceTable, ScopedLimit } from '../usage/budget-options.js';
import type { TreeUsage } from '../usage/tree-usage.js';
import type { AgentContext } from './agent-context.js';
import type { ChildRunner, RunPlacement } from './child-runner.js';
import type { JournalEntry, JournalEntryKind, RunJournal } from './journal-entry.js';

export type {
  JournalEntry,
  JournalEntryKind,
  LoadedJournal,
  RecordOptions,
  RunJournal,
} from './journal-entry.js';

/** `equipMemory` / `equipMemo` values of each agent invocation of the run, keyed by its callPath. */
export interface RunMemoryStore {
  load(callPath: string): Promise<Record<string, unknown>>;
  /**
   * What {@link load} would resolve with when the store holds it already (read ahead, e.g. by
   * the worker's run start), taken without a promise; `undefined` when `load` must be called.
   * @default always `undefined`
   */
  loaded?(callPath: string): Record<string, unknown> | undefined;
  set(callPath: string, key: string, value: unknown): Promise<void>;
  clear(callPath: string): Promise<void>;
}

/** Where a run's latest progress is kept (`reportProgress`). */
export interface RunProgressStore {
  /** Stores `value` (checked JSON) as the run's latest progress. */
  record(value: unknown): Promise<void>;
}

/** Turns in progress, registered by `promptChat` (see `RunServices.unfinishedTurns`). */
export interface UnfinishedTurns {
  /** Registers a turn in progress with the function that stores it closed; call the returned function once the turn is stored whole. */
  open(close: () => Promise<void>): () => void;
}

/** The outside world of one run, handed to {@link executeRun}. */
export interface RunServices {
  runId: string;
  /** The tenant whose run it is (`client.forTenant`), read by agent code through `runInfo()`. @default none */
  tenant?: string;
  /**
   * An opaque token unique to one execution attempt of the run (a worker creates one for every
   * delivery of the run's job). Every write to the run's keys carries it and is refused once a
   * newer attempt owns the run; with `runId` it is the holder of the conversation's lease, so the
   * conversation store refuses appends of any other attempt. Absent in embedded mode.
   */
  readonly attempt?: string;
  /** When set, `promptChat` loads this conversation's history and appends each whole turn to it. */
  conversationId?: string;
  /**
   * Where `promptChat` registers a turn it started and has not stored yet. When the run ends
   * failed or cancelled for good, the worker stores each such turn closed (or drops it after
   * another run's `onConflict: 'rollback'`) before the next run on the conversation starts.
   * Absent in embedded mode: an unfinished turn is then not stored.
   */
  unfinishedTurns?: UnfinishedTurns;
  journal: RunJournal;
  memory: RunMemoryStore;
  conversations: ConversationStore;
  events: RunEventSink;
  /** Resolves string model ids (`createAgent({ model: 'gpt' })`, createWorker({ models })). */
  models: ReadonlyMap<string, ModelAdapter>;
  /** Aborted when the run is cancelled; checked at every durable step. */
  signal: AbortSignal;
  /**
   * The run's abort without its signal (a worker's): the root agent invocation reads it and
   * links its controller to it instead of `signal`, so a run whose code never asks for the
   * run's signal makes none. Aborted exactly when `signal` is. @default `signal` is read
   */
  abort?: RunAbort;
  /** Scope layers given at submit time (`client.submit(…, { scope })`), outermost first. */
  scope?: Record<string, unknown>[];
  logger?: Logger;
  /**
   * Bounds of the values that enter the run from outside its code (model answers, tool
   * output): `FLOTILLA_MAX_JSON_DEPTH` / `FLOTILLA_MAX_PAYLOAD_BYTES` on a worker.
   * @default DEFAULT_JSON_LIMITS (128 levels, 1 MiB)
   */
  limits?: JsonLimits;
  /**
   * The fleet-wide memo, when the run executes on a worker with Redis; `equipFleetMemo` (used by
   * the MCP adapter for `tools/list`) shares values through it across runs and workers.
   * Absent in embedded mode: values are then cached per agent invocation only.
   */
  fleetMemo?: FleetMemo;
  /**
   * The worker's resources seen from this run (registry, inherited descriptors, broker), when
   * the run executes on a worker. Absent in embedded mode: each execution gets a private registry.
   */
  resources?: RunResources;
  /**
   * Runs child agents as separate runs (BullMQ child jobs) so the run can suspend while they
   * run. Absent in embedded mode: children then run in-process, inside this run.
   */
  children?: ChildRunner;
  /**
   * Where `reportProgress` stores the run's latest progress (its record, on a worker). Absent in
   * embedded mode: progress is then only emitted as an event.
   */
  progress?: RunProgressStore;
  /**
   * Where tool results over `equipContextBudget({ offloadToolResultsOver })` are stored (Redis
   * blobs on a worker, so any worker can page through them). Absent: an in-memory store per run.
   */
  outputs?: OffloadedOutputs;
  /**
   * The fleet-wide rate limit budgets model calls draw on (models with `limits`, or in the
   * worker's `modelLimits`). Absent in embedded mode: calls then go without a budget.
   */
  modelBudgets?: RunModelBudgets;
  /** For a child run: where its root invocation sits in the tree. Absent for root runs. */
  placement?: RunPlacement;
  /** Durable waits on a worker (signals, approvals; see {@link RunWaits}). Absent in embedded mode. */
  waits?: RunWaits;
  /**
   * The spend counted against `equipBudget` limits (Redis, under the root run's tag, on a
   * worker). Absent: the run is its own tree, counted in memory.
   */
  treeUsage?: TreeUsage;
  /**
   * For a child run: the limits and prices its ancestors' `equipBudget` set, from its job data
   * (on a worker, under the worker's own price table). @default none
   */
  budget?: InheritedBudget;
  /**
   * Set by `replayRun` (`replay/`): the run replays a recorded journal and executes nothing.
   * Absent everywhere else.
   */
  replayOnly?: ReplayOnly;
}

/** A run's abort state, and a link from it to a controller (see `RunServices.abort`). */
export interface RunAbort {
  readonly aborted: boolean;
  /** Why the run aborted (the first reason), once it did. */
  readonly reason: unknown;
  /** Aborts `controller` with the run's reason when the run aborts (at once when it has); returns the unlink. */
  link(controller: AbortController): () => void;
}

/** What a child run inherits from its ancestors' `equipBudget` (travels in its job data). */
export interface InheritedBudget {
  /** Every ancestor invocation's limits, outermost first. */
  limits?: ScopedLimit[];
  prices?: PriceTable;
}

/** What a replay-only run does where a normal run would execute or fail (see `replay/replay-run.ts`). */
export interface ReplayOnly {
  /**
   * A durable step with no recorded entry: resolves with a recorded value from elsewhere (a
   * child run's outcome), rejects (a divergence), or never settles (the end of what was recorded).
   */
  unrecorded(
    context: AgentContext,
    step: { kind: JournalEntryKind; position: string; fingerprint: string },
  ): Promise<unknown>;
  /** A recorded entry did not match the step asked for (the error is thrown right after). */
  diverged(error: NonDeterminismError): void;
}

/**
 * What a finished run produced. `usage` and `modelCalls` count live model turns of this
 * execution, plus the totals of child runs this execution recorded.
 */
export interface RunOutcome {
  output: unknown;
  usage: TokenUsage;
  modelCalls: number;
  /**
   * Set when the execution suspended instead of finishing (only with `RunServices.children`):
   * every durable operation waited on these child runs. `output` is then `undefined`; replay
   * the run once they end.
   */
  suspended?: RunSuspension;
}

/**
 * Why an execution suspended: the child runs it waits on, and its other waits (approvals,
 * signals, sleeps: `engine/suspend-until.ts`). A worker moves a run with pending children to
 * waiting-children (their end resumes it); a run with waits only is parked in BullMQ's delayed
 * set until `wakeAt` (the earliest due wait) or a wake-up (`waits/wake-run.ts`).
 */
export interface RunSuspension {
  pendingChildren: string[];
  /**
   * The journal positions of every durable step the execution waited at (child calls, waits,
   * and the steps containing them), none journaled yet. A worker stores them with the
   * suspension, so the next execution's `patched()` counts them as reached (`LoadedJournal`).
   * @default none
   */
  pendingSteps?: string[];
  /** @default none */
  waits?: ParkedWait[];
  /** The earliest `wakeAt` of `waits`, when one is due by itself (epoch ms). */
  wakeAt?: number;
}

/**
 * The run's side of durable waits on a worker (Redis, in the run's `{r:…}` keys): signals
 * queued per name, approvals asked and answered. Its presence also says the run can park
 * (suspend on a wait and be replayed later); absent in embedded mode, where `suspendUntil`
 * sleeps in-process and signals and approvals are refused.
 */
export interface RunWaits {
  /**
   * Takes the next signal `name` into the journal at `position` (atomically: a signal is taken
   * once, by one wait), or returns the entry already there; `undefined` when none is queued.
   */
  takeSignal(name: string, position: string, fingerprint: string): Promise<JournalEntry | undefined>;
  /** Keeps the JSON Schema a wait on `name` expects, so a sender is checked against it. */
  expectSignal(name: string, schema: Record<string, unknown> | undefined): Promise<void>;
  /** The answer to the approval of tool call `callId`, if one came. */
  approvalOf(callId: string): Promise<ApprovalAnswer | undefined>;
  /** Stores the request of an approval; `true` the first time (emit `approval-requested` then). */
  requestApproval(callId: string, request: ApprovalRequest): Promise<boolean>;
}

/** What a person is asked to approve: one tool call. */
export interface ApprovalRequest {
  callId: string;
  tool: string;
  args: unknown;
  /** The agent invocation that made the call. */
  callPath: string;
}

/** A person's answer to an approval (`client.approve`). */
export interface ApprovalAnswer {
  approved: boolean;
  /** Replacement arguments for the tool (checked against its schema). @default the model's */
  args?: unknown;
  /** Why; the model sees it when the call was rejected. */
  reason?: string;
}
