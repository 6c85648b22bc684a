import type { TokenUsage } from '@flotilla/ir';
import type { SerializedError } from '../errors/serialize-error.js';
import type { RunStatus } from './run-status.js';

/** What is known about one run; read it with `client.getRun(runId)`. Times are epoch ms. */
export interface RunRecord {
  runId: string;
  agentId: string;
  status: RunStatus;
  conversationId?: string;
  /** The agent's result, when `status` is `succeeded`. */
  output?: unknown;
  /** Why the run failed or was cancelled; rebuild it with `deserializeError`. */
  error?: SerializedError;
  /** Usage of live (not replayed) model turns. */
  usage: TokenUsage;
  modelCalls: number;
  /** How many times a worker started the run (more than 1 after a crash). */
  attempts: number;
  createdAt: number;
  startedAt?: number;
  endedAt?: number;
}
