import type { Telemetry } from 'bullmq';
import type { Logger } from 'pino';
import type { RedisConnectionOption } from '../config/open-redis.js';
import type { AnyAgent } from '../context/agent-definition.js';
import type { ModelLimits } from '../limits/model-limits.js';
import type { AnyModelAdapter } from '../model/stream-model-adapter.js';
import type { ResourceDefinition } from '../resources/define-resource.js';
import type { ResourceBrokerTiming } from '../resources/resource-broker.js';
import type { PriceTable } from '../usage/budget-options.js';
import type { WorkerRunHooks } from './worker-run-hooks.js';

/**
 * Options of `createWorker`. Every option left out falls back to its environment variable,
 * then to its default (see `FlotillaConfig`); they are resolved once, at start. `onRunStart` /
 * `onRunEnd` ({@link WorkerRunHooks}) observe each run's lifecycle.
 */
export interface CreateWorkerOptions extends WorkerRunHooks {
  /** The agents this worker serves, by their `id` (job name = agent id). */
  agents: readonly AnyAgent[] | Readonly<Record<string, AnyAgent>>;
  /** Adapters that string model ids (`createAgent({ model: 'gpt' })`) resolve to. @default none */
  models?: Readonly<Record<string, AnyModelAdapter>> | ReadonlyMap<string, AnyModelAdapter>;
  /**
   * Fleet-wide rate limits of models whose adapter has no `limits` of its own, keyed by
   * `<provider>/<modelId>` (e.g. `openai/gpt-4.1-mini`) or by `<modelId>`: `{ rpm?, tpm?, burst?,
   * maxWaitMs? }`. Give every worker the same table (the numbers of the latest call apply).
   * @default none
   */
  modelLimits?: Readonly<Record<string, ModelLimits>>;
  /**
   * Prices of models for usage costs (`getUsageStats`, `equipBudget({ maxCostMicroUsd })`) in
   * integer micro-USD per million tokens, keyed `<provider>/<modelId>` or `<modelId>`:
   * `{ inputMicroUsdPerMillionTokens, outputMicroUsdPerMillionTokens }`. An agent's
   * `equipBudget({ prices })` entries win; child runs inherit the table of the worker that
   * started their tree. Invalid → `InvalidBudgetError` at start. @default none
   */
  prices?: PriceTable;
  /** A Redis URL or a connection to duplicate. @default REDIS_URL, else 'redis://127.0.0.1:6379' */
  connection?: RedisConnectionOption;
  /** For a `rediss://` URL: a PEM file of the CA(s) to trust. @default FLOTILLA_REDIS_TLS_CA_FILE, else Node's CAs */
  redisTlsCaFile?: string;
  /** Key prefix; BullMQ's is `<prefix>:{q}`. @default FLOTILLA_PREFIX, else 'flotilla' */
  prefix?: string;
  /** First part of every agent queue's name (`<queueName>/<agentId>`). @default FLOTILLA_QUEUE, else 'agents' */
  queueName?: string;
  /**
   * The build of the code this worker runs (a version, a commit: 1 to 128 letters, digits, `_`,
   * `.`, `+` or `-`), shown in the worker registry and kept on the runs it starts first
   * (`RunRecord.buildId`). Required with `versioning: 'pinned'`. @default FLOTILLA_BUILD_ID, else none
   */
  buildId?: string;
  /**
   * `'pinned'`: each root run this worker takes first is pinned to its `buildId`, with its whole
   * tree: it resumes (after child runs, waits, a crash) only on workers of that build or of one
   * listing it in `compatibleWith`; while a newer build serves an agent, this worker takes no new
   * runs of it and drains its pinned ones (a rolling deploy). `'unpinned'`: any worker serving
   * the agent resumes any run (guard code changes with `patched()`). Pinned runs are resumed by
   * pinned workers only. @default FLOTILLA_VERSIONING, else 'unpinned'
   */
  versioning?: 'pinned' | 'unpinned';
  /**
   * With `versioning: 'pinned'`: other builds (at most 32) whose pinned runs this worker resumes
   * too — its code replays their journals the same way (new code paths behind `patched()`).
   * @default FLOTILLA_COMPATIBLE_WITH (comma-separated), else none
   */
  compatibleWith?: readonly string[];
  /**
   * Runs executed at once, shared by the queues of all its agents (one BullMQ queue per agent).
   * @default FLOTILLA_WORKER_CONCURRENCY, else 4
   */
  concurrency?: number;
  /** @default a pino logger at LOG_LEVEL (else 'info') */
  logger?: Logger;
  /**
   * Largest value accepted, in bytes of JSON: run input and scope, tool arguments and output, a
   * model answer, an event. @default FLOTILLA_MAX_PAYLOAD_BYTES, else 1 MiB
   */
  maxPayloadBytes?: number;
  /** Deepest nesting of arrays/objects in those values (1 to 1000). @default FLOTILLA_MAX_JSON_DEPTH, else 128 */
  maxJsonDepth?: number;
  /**
   * BullMQ lock, renewed while the run executes; after a crash, another worker takes the run over
   * within about this plus `stalledIntervalMs`. An attempt whose lock is about to lapse stops, and
   * a superseded attempt's writes are refused (fenced attempts). @default FLOTILLA_LOCK_DURATION_MS, else 5000
   */
  lockDurationMs?: number;
  /** How often stalled runs are looked for. @default FLOTILLA_STALLED_INTERVAL_MS, else 2500 */
  stalledIntervalMs?: number;
  /** Crashes one run survives before it fails with `RunStalledError`. @default 3 */
  maxStalledCount?: number;
  /** @default 10000 */
  eventStreamMaxLength?: number;
  /** Child agent calls one run may make; more throw `FanOutLimitExceededError`. @default FLOTILLA_MAX_CHILDREN_PER_RUN, else 1000 */
  maxChildrenPerRun?: number;
  /** How long an ended run's record and compacted timeline stay. @default 604800 (7 days) */
  runRetentionSeconds?: number;
  /** How long an ended run's journal stays (to replay or export the run). @default 604800 (7 days) */
  journalRetentionSeconds?: number;
  /** How long a conversation (and the blobs it references) stays after its last turn; 0 keeps it. @default FLOTILLA_CONVERSATION_RETENTION_SECONDS, else 0 */
  conversationRetentionSeconds?: number;
  /**
   * Conversation messages are stored in list entries of up to this many bytes; 0 = one message per
   * entry, readable by versions before `append-conversation-7` (for a rolling deploy).
   * @default FLOTILLA_CONVERSATION_CHUNK_BYTES, else 16384
   */
  conversationChunkBytes?: number;
  /**
   * How often a run parked behind another run on its conversation looks again by itself (it is
   * woken at once when the run ahead ends; this bounds a lost wake-up).
   * @default FLOTILLA_CONVERSATION_RECHECK_MS, else 10000
   */
  conversationRecheckMs?: number;
  /**
   * Resource factories this worker registers (`defineResource`): a child run here that expects
   * a resource exposed on another worker gets a local instance built from the exposed deps
   * instead of a broker proxy. @default none
   */
  resources?: readonly ResourceDefinition[];
  /**
   * Timing of cross-worker resource calls (use the same values on every worker) and how long a
   * suspended run keeps its resources on this worker.
   * @default { heartbeatIntervalMs: 1000, heartbeatTtlMs: 5000, callTimeoutMs: 60000, suspendedLeaseTtlMs: 600000 }
   */
  resourceBroker?: ResourceBrokerTiming & { suspendedLeaseTtlMs?: number };
  /**
   * How long a cancelled or timed-out run's code may take to stop by itself once its signal is
   * aborted; past it the worker abandons the execution (the run ends, the slot is freed, the
   * code's later writes are refused), so `cancel()` ends a run within about this long even when
   * its code ignores the signal. @default 500
   */
  abandonGraceMs?: number;
  /**
   * How long `close()` lets active runs finish; past it each one still executing is abandoned and
   * its job moved back to wait at once, so another worker replays it from its journal (the record
   * stays `running`). @default 25000
   */
  shutdownGraceMs?: number;
  /**
   * How long a job fetched while every slot is in use (an idle agent queue of this worker may
   * fetch one) waits here for the next slot a run's end frees before it is handed back to its
   * queue, unstarted, for any worker; `0` hands it back at once (`FLOTILLA_SLOT_HOLD_MS`, at most
   * 60000). @default 250
   */
  slotHoldMs?: number;
  /**
   * BullMQ telemetry (e.g. `new BullMQOtel('flotilla')` from `bullmq-otel`): jobs carry the W3C
   * trace context, so a run tree (submit, runs, child runs, resumes, replays) is one trace.
   * Nothing is recorded unless an OpenTelemetry SDK is registered. @default none
   */
  telemetry?: Telemetry;
  /** Where unset options are read from. @default process.env */
  env?: Readonly<Record<string, string | undefined>>;
}
