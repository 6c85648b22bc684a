/**
 * Typed per-run lifecycle callbacks of a worker, for metrics and tracing without parsing its
 * logs. They are called synchronously from the run processor; a hook that throws is logged and
 * never affects the run.
 */
import type { TokenUsage } from '@flotilla/ir';
import type { SerializedError } from '../errors/serialize-error.js';

/** What {@link WorkerRunHooks.onRunStart} gets. */
export interface WorkerRunStartInfo {
  runId: string;
  /** The agent id (= the job name). */
  agentId: string;
  /** The run record's attempt count after this start (1 on the first start). */
  attempt: number;
  /** The tenant whose run it is (`runId` is then qualified: `<tenant>~<id>`); `undefined` for none. */
  tenant?: string | undefined;
}

/** What {@link WorkerRunHooks.onRunEnd} gets: the run's record as this worker ended it. */
export interface WorkerRunEndInfo {
  runId: string;
  agentId: string;
  status: 'succeeded' | 'failed' | 'cancelled';
  /** Of the whole run: every execution and, for a parent, its child runs. */
  usage: TokenUsage;
  modelCalls: number;
  /** From the run's first start to its end, in ms (suspensions and retry waits included). */
  durationMs: number;
  attempts: number;
  /** Why it failed or was cancelled. */
  error?: SerializedError;
  /** For a child run: the run that called it. */
  parentRunId?: string;
  /** The tenant whose run it is (`runId` is then qualified: `<tenant>~<id>`). */
  tenant?: string;
}

/** Lifecycle hooks of `createWorker`. */
export interface WorkerRunHooks {
  /**
   * Called each time this worker begins executing a run's job: the first start, a retry, a
   * replay after a crash, and a resume after the run's child runs ended. @default none
   */
  onRunStart?: (info: WorkerRunStartInfo) => void;
  /**
   * Called once per run, by the worker that ended it (`succeeded`, `failed` — also after too
   * many stalls — or `cancelled` while it ran). Runs cancelled while queued or suspended end
   * in the client and do not reach any worker's hook. Failed attempts that will be retried do
   * not call it. @default none
   */
  onRunEnd?: (info: WorkerRunEndInfo) => void;
}
