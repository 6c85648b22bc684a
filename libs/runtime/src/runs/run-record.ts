import type { TokenUsage } from '@flotilla/ir';
import type { SerializedError } from '../errors/serialize-error.js';
import type { ParkedWait, WaitingFor } from '../gate/waiting-for.js';
import type { RunStatus } from './run-status.js';

/** What is known about one run; read it with `client.getRun(runId)`. Times are epoch ms. */
export interface RunRecord {
  runId: string;
  agentId: string;
  status: RunStatus;
  /**
   * The tenant whose run it is (`client.forTenant(tenant)`, a named API token's tenant); its
   * child runs have the same. A tenant's client shows its own ids (`runId`, `parentRunId`,
   * `rootRunId`, `conversationId`) as it named them.
   */
  tenant?: string;
  conversationId?: string;
  /** For a schedule's firing (`client.schedule`): the schedule's id. Filter with `listRuns({ scheduleId })`. */
  scheduleId?: string;
  /**
   * While the run is `queued` at the waiting gate, or `waiting` on a durable wait (not holding
   * a worker slot): what it waits for, e.g. `{ kind: 'conversation', detail: 'c1 (after run r7)' }`
   * behind the run ahead of it on its conversation, or `{ kind: 'approval', detail: … }`; a
   * pinned run that no live worker of its build (or a compatible one) can resume shows
   * `{ kind: 'build', detail: <pinnedBuild> }` (read from the worker registry when the record is read).
   * Cleared when it starts.
   */
  waitingFor?: WaitingFor;
  /**
   * While the run is `waiting` on durable waits of its code: every one of them (several when
   * parallel tool calls each await approval), with what a person needs to answer it — for
   * `approval` `info: { callId, tool, args }`, for `signal` `info: { name, schema? }`, for
   * `sleep` `info: { until }` — and when each is due by itself (`wakeAt`). `waitingFor` sums
   * them up. Cleared when the run goes on.
   */
  waits?: ParkedWait[];
  /** For a child run: the run whose agent called it. */
  parentRunId?: string;
  /** For a child run: the root of its tree. */
  rootRunId?: string;
  /** For a child run: its callPath in the tree (the parent's journal position of the call). */
  callPath?: string;
  /** For a child run: what its parent asked for (agent id + props hash), checked on the parent's replay. */
  fingerprint?: string;
  /**
   * The build (`FLOTILLA_BUILD_ID`) of the worker that first started the run; absent while it
   * has not started, or when that worker had no build id.
   */
  buildId?: string;
  /**
   * The build the run is pinned to (`FLOTILLA_VERSIONING=pinned`): it resumes only on workers of
   * this build or of one that lists it in `compatibleWith`. A root run is pinned by the first
   * worker that takes it; a child run of a pinned run has its parent's. Absent: unpinned.
   */
  pinnedBuild?: string;
  /** The agent's result, when `status` is `succeeded`. */
  output?: unknown;
  /** The latest value the run reported with `reportProgress` (JSON). */
  progress?: unknown;
  /** Why the run failed or was cancelled; rebuild it with `deserializeError`. */
  error?: SerializedError;
  /**
   * Usage of live (not replayed) model turns over the run's executions (each suspension adds
   * its share), plus the totals of its child runs: a root's usage covers its whole tree.
   */
  usage: TokenUsage;
  modelCalls: number;
  /** How many times a worker started the run (more than 1 after a crash or a retry; resuming after a suspension does not count). */
  attempts: number;
  createdAt: number;
  startedAt?: number;
  endedAt?: number;
}
