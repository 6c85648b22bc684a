/**
 * The shapes of the scheduler's answers the dashboard reads (a subset of `/openapi.json`).
 * Values come from the network: the views read them defensively and render them as text.
 */

export type RunStatus = 'queued' | 'running' | 'waiting' | 'succeeded' | 'failed' | 'cancelled';

export const RUN_STATUSES: readonly RunStatus[] = [
  'queued',
  'running',
  'waiting',
  'succeeded',
  'failed',
  'cancelled',
];

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export interface StoredError {
  name: string;
  message: string;
  data?: Record<string, unknown>;
  cause?: StoredError;
}

export interface RunRecord {
  runId: string;
  agentId: string;
  status: RunStatus;
  tenant?: string;
  conversationId?: string;
  waitingFor?: { kind: string; detail: string };
  /** Every durable wait of a suspended run (an approval's `info`: `{ callId, tool, args }`). */
  waits?: ParkedWait[];
  parentRunId?: string;
  rootRunId?: string;
  callPath?: string;
  /** The build of the worker that first started the run. */
  buildId?: string;
  /** The build the run is pinned to (worker versioning). */
  pinnedBuild?: string;
  output?: unknown;
  progress?: unknown;
  error?: StoredError;
  usage: Usage;
  modelCalls: number;
  attempts: number;
  createdAt: number;
  startedAt?: number;
  endedAt?: number;
}

export interface ParkedWait {
  waitingFor: { kind: string; detail: string };
  wakeAt?: number;
  info?: Record<string, unknown>;
}

export interface RunList {
  runs: RunRecord[];
  nextCursor?: string;
}

export interface RunTreeNode {
  runId: string;
  agentId: string;
  status: RunStatus;
  waitingFor?: { kind: string; detail: string };
  attempts: number;
  modelCalls: number;
  usage: Usage;
  createdAt: number;
  durationMs?: number;
  progress?: unknown;
  children: RunTreeNode[];
}

export interface RunTree {
  root: RunTreeNode;
  nodeCount: number;
  truncated: boolean;
}

/** One run event (`GET /runs/{id}/events`); fields by `type`, see the runtime's `run-event.ts`. */
export interface RunEvent {
  type: string;
  runId: string;
  at: number;
  callPath: string;
  [field: string]: unknown;
}

export interface WorkerInfo {
  workerId: string;
  host: string;
  pid: number;
  agents: string[];
  buildId?: string;
  versioning?: 'pinned';
  compatibleWith?: string[];
  draining?: string[];
  concurrency: number;
  activeRuns: number;
  startedAt: number;
  heartbeatAt: number;
}

export interface FleetAgent {
  agentId: string;
  servedBy: string[];
  live: boolean;
  queue: { waiting: number; active: number; delayed: number; waitingChildren: number };
}

export interface Fleet {
  workers: WorkerInfo[];
  agents: FleetAgent[];
}

export interface ToolCall {
  id: string;
  function: { name: string; arguments: string };
}

export interface Attachment {
  mediaType: string;
  data: string;
  source?: 'base64' | 'url' | 'file-id';
  filename?: string;
}

export interface Message {
  role: string;
  content: string;
  name?: string;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
  thinking?: { thinking: string };
  redacted_thinking?: unknown;
  attachments?: Attachment[];
  [field: string]: unknown;
}

export interface Conversation {
  header: {
    conversationId: string;
    version: number;
    messageCount: number;
    system: Message[];
    model?: { provider: string; id: string };
    usage: Usage;
    createdAt: string;
    updatedAt: string;
  };
  messages: Message[];
}

export const COMPILE_TARGETS = ['openai', 'anthropic', 'gemini', 'openai-responses'] as const;
export type CompileTarget = (typeof COMPILE_TARGETS)[number];

export interface CompiledConversation {
  conversationId: string;
  version: number;
  target: CompileTarget;
  payload: Record<string, unknown>;
  warnings: { code: string; message: string; messageIndex?: number }[];
}
