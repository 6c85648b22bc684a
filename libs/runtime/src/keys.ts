/**
 * Every Redis key Flotilla writes, built in one place. All keys of one run share the hash tag
 * `{r:<runId>}` and all keys of one conversation share `{c:<conversationId>}`, so each group
 * lands in one Redis Cluster slot and multi-key Lua scripts stay legal.
 */
export interface RunKeys {
  /** Journal: hash of position → recorded entry (JSON). */
  journal: string;
  /** `equipMemory` values: hash of key → JSON. */
  memory: string;
  /** Events: capped stream, while the run is unfinished (then compacted into `timeline`). */
  events: string;
  /** A finished run's events, compacted: one JSON string (see `events/run-timeline.ts`). */
  timeline: string;
  /** Run record: hash with status, output/error, usage, timestamps. */
  record: string;
  /** Cancel flag. */
  cancel: string;
  /** Set of the callPaths that have a memory hash, so the run's memory can be deleted at its end. */
  memoryIndex: string;
  /** Set of the run ids of this run's child runs (added when each is enqueued); cancel walks it. */
  children: string;
  /** `equipMemory` values of one agent invocation: hash of key → JSON. */
  memoryOf(callPath: string): string;
  /** Signals of one name, in arrival order: list of `{ id, payload }` JSON (`waits/`). */
  signalsOf(name: string): string;
  /** Signal ids seen (a repeated id is ignored): set. */
  signalIds: string;
  /** How many signals of each name waits took: hash of name → count. */
  signalCursors: string;
  /** The JSON Schema the run's waits on each signal name expect: hash of name → JSON. */
  signalSchemas: string;
  /** Approvals the run asked for: hash of tool call id → `{ tool, args, callPath }` JSON. */
  approvalRequests: string;
  /** Answers to them: hash of tool call id → `{ approved, args?, reason? }` JSON (first answer wins). */
  approvals: string;
  /**
   * The usage of the tree this run is the ROOT of (`usage/redis-tree-usage.ts`): hash with
   * `tokens`, `microUsd` and `stats:<runId>` of its runs. Only a root run's is written.
   */
  usage: string;
  /** Reservations of the tree's calls in flight: hash of id → `<tokens>:<microUsd>:<expiresAtMs>` (root runs only). */
  usageReservations: string;
}

export interface ConversationKeys {
  /** Header: hash with schema version, version, system prompt, model, usage, timestamps. */
  header: string;
  /** Append-only log of messages (list of JSON); entry i is message i. */
  messages: string;
  /** Version index: list where entry v is the message count at version v+1 … see ConversationStore. */
  versions: string;
  /** Applied append ids: hash of appendId → the version that append produced (idempotency). */
  appends: string;
  /** Set of the sha256 of every media blob the conversation references (to refresh their expiry). */
  blobs: string;
}

/**
 * The keys of the runs asked for last, by prefix then run id: a run's keys are asked for by its
 * record, journal, write batch and usage calls (five or more times per run on a worker, the first
 * often by its parent, which creates its record). Sized for the runs a busy worker has in hand: a
 * c=100 fan-out's children wait ~2,000 runs between their record's creation and their start,
 * and the root's replay reads them after that (256 kept, a run's keys were built 2.3 times).
 * Cheap per entry, as each key is built on its first use ({@link LazyRunKeys}): ~3 MB when full.
 * Bounded (oldest first out): a miss only builds them again.
 */
const cachedRunKeys = new Map<string, Map<string, RunKeys>>();
const RUN_KEYS_CACHED = 4096;

export function runKeys(prefix: string, runId: string): RunKeys {
  let ofPrefix = cachedRunKeys.get(prefix);
  const cached = ofPrefix?.get(runId);
  if (cached) return cached;
  if (!ofPrefix) {
    // Processes use one prefix or a few (tests: one per test file); more than a few are forgotten.
    if (cachedRunKeys.size >= 8) cachedRunKeys.clear();
    ofPrefix = new Map();
    cachedRunKeys.set(prefix, ofPrefix);
  }
  if (ofPrefix.size >= RUN_KEYS_CACHED) ofPrefix.delete(ofPrefix.keys().next().value as string);
  // Frozen (getters only, no fields of its own): a shared object cannot be changed by one caller under another.
  const keys = Object.freeze(new LazyRunKeys(`${prefix}:run:{r:${runId}}`));
  ofPrefix.set(runId, keys);
  return keys;
}

/**
 * A run's keys, each built on its first use and kept: a run uses about half of them (a leaf
 * run: record, journal, events, cancel, timeline, children, memory index), and a run id seen
 * once (a child created, then run by another worker) builds none but the base.
 */
class LazyRunKeys implements RunKeys {
  readonly #base: string;
  #journal: string | undefined;
  #memory: string | undefined;
  #events: string | undefined;
  #timeline: string | undefined;
  #record: string | undefined;
  #cancel: string | undefined;
  #memoryIndex: string | undefined;
  #children: string | undefined;
  #rootMemory: string | undefined;
  #signalIds: string | undefined;
  #signalCursors: string | undefined;
  #signalSchemas: string | undefined;
  #approvalRequests: string | undefined;
  #approvals: string | undefined;
  #usage: string | undefined;
  #usageReservations: string | undefined;

  constructor(base: string) {
    this.#base = base;
  }

  get journal(): string {
    this.#journal ??= `${this.#base}:journal`;
    return this.#journal;
  }
  get memory(): string {
    this.#memory ??= `${this.#base}:memory`;
    return this.#memory;
  }
  get events(): string {
    this.#events ??= `${this.#base}:events`;
    return this.#events;
  }
  get timeline(): string {
    this.#timeline ??= `${this.#base}:timeline`;
    return this.#timeline;
  }
  get record(): string {
    this.#record ??= `${this.#base}:record`;
    return this.#record;
  }
  get cancel(): string {
    this.#cancel ??= `${this.#base}:cancel`;
    return this.#cancel;
  }
  get memoryIndex(): string {
    this.#memoryIndex ??= `${this.#base}:memory-index`;
    return this.#memoryIndex;
  }
  get children(): string {
    this.#children ??= `${this.#base}:children`;
    return this.#children;
  }
  memoryOf(callPath: string): string {
    // The root agent's (`''`) is named by every run's start and end: kept like the fixed keys.
    if (callPath !== '') return `${this.#base}:memory:${callPath}`;
    this.#rootMemory ??= `${this.#base}:memory:`;
    return this.#rootMemory;
  }
  signalsOf(name: string): string {
    return `${this.#base}:signals:${name}`;
  }
  get signalIds(): string {
    this.#signalIds ??= `${this.#base}:signal-ids`;
    return this.#signalIds;
  }
  get signalCursors(): string {
    this.#signalCursors ??= `${this.#base}:signal-cursors`;
    return this.#signalCursors;
  }
  get signalSchemas(): string {
    this.#signalSchemas ??= `${this.#base}:signal-schemas`;
    return this.#signalSchemas;
  }
  get approvalRequests(): string {
    this.#approvalRequests ??= `${this.#base}:approval-requests`;
    return this.#approvalRequests;
  }
  get approvals(): string {
    this.#approvals ??= `${this.#base}:approvals`;
    return this.#approvals;
  }
  get usage(): string {
    this.#usage ??= `${this.#base}:usage`;
    return this.#usage;
  }
  get usageReservations(): string {
    this.#usageReservations ??= `${this.#base}:usage-reservations`;
    return this.#usageReservations;
  }
}

export function conversationKeys(prefix: string, conversationId: string): ConversationKeys {
  const base = `${prefix}:conv:{c:${conversationId}}`;
  return {
    header: `${base}:header`,
    messages: `${base}:messages`,
    versions: `${base}:versions`,
    appends: `${base}:appends`,
    blobs: `${base}:blobs`,
  };
}

/**
 * Keys of a conversation's writer gate (one writer per conversation, `gate/conversation-gate.ts`),
 * under the conversation's hash tag so the append script can check the lease in one slot.
 * Kept apart from {@link ConversationKeys}: they are transient (emptied as runs end), not stored
 * history, and the append script's retention does not apply to them.
 */
export interface ConversationGateKeys {
  /** The conversation's writers in order: sorted set of run id → submission sequence (head = the writer). */
  writers: string;
  /** Counter that gives each registered writer its sequence number. */
  sequence: string;
  /** The lease: hash { runId, attempt } of the one execution attempt allowed to append. */
  lease: string;
  /** Set of the run ids a `rollback` submission cancelled: their unfinished turn is discarded. */
  rollbacks: string;
}

export function conversationGateKeys(prefix: string, conversationId: string): ConversationGateKeys {
  const base = `${prefix}:conv:{c:${conversationId}}:gate`;
  return {
    writers: `${base}:writers`,
    sequence: `${base}:sequence`,
    lease: `${base}:lease`,
    rollbacks: `${base}:rollbacks`,
  };
}

/** Content-addressed media blob (sha256 of the bytes); shared by every conversation. */
export function blobKey(prefix: string, sha256: string): string {
  return `${prefix}:blob:${sha256}`;
}

/** Pub/sub channel on which cancel requests (a run id per message) reach every worker. */
export function cancelChannel(prefix: string): string {
  return `${prefix}:cancel`;
}

/** Default key prefix; also BullMQ's queue prefix. */
export const DEFAULT_PREFIX = 'flotilla';

/** Keys of one entry of the fleet memo: one (memo key, epoch, deps hash) triple. */
export interface FleetMemoEntryKeys {
  /** The computed value (JSON text), with a TTL. */
  value: string;
  /** Single-flight lock: the token of the process computing the value (SET NX PX). */
  lock: string;
  /** Pub/sub channel on which the computing process announces it is done. */
  channel: string;
}

/** Keys of one fleet memo key (e.g. an MCP `tools/list` cache). */
export interface FleetMemoKeys {
  /** Epoch counter; `forceRefresh` increments it, so every entry of older epochs is ignored. */
  epoch: string;
  entry(epoch: number, depsHash: string): FleetMemoEntryKeys;
}

/**
 * Keys of the fleet-wide memo for `memoKey`. All keys of one memo key share the hash tag
 * `{m:<memoKey>}`, so epoch, value and lock of one key live in one Redis Cluster slot.
 */
export function fleetMemoKeys(prefix: string, memoKey: string): FleetMemoKeys {
  const base = `${prefix}:memo:{m:${memoKey}}`;
  return {
    epoch: `${base}:epoch`,
    entry: (epoch, depsHash) => ({
      value: `${base}:value:${epoch}:${depsHash}`,
      lock: `${base}:lock:${epoch}:${depsHash}`,
      channel: `${base}:done:${epoch}:${depsHash}`,
    }),
  };
}

/** Keys of one worker's resource broker (the owner side of cross-worker resource calls). */
export interface ResourceBrokerKeys {
  /** List of pending call requests (JSON), RPUSHed by callers, BLPOPed by the owner. */
  requests: string;
  /** Liveness: set with a short PX and refreshed while the worker lives. */
  heartbeat: string;
}

/** Keys of the resource broker of worker `workerId`; they share the hash tag `{w:<workerId>}`. */
export function resourceBrokerKeys(prefix: string, workerId: string): ResourceBrokerKeys {
  const base = `${prefix}:res:{w:${workerId}}`;
  return { requests: `${base}:requests`, heartbeat: `${base}:heartbeat` };
}

/** The reply list of one resource call: the owner LPUSHes one reply, the caller BLPOPs it. */
export function resourceReplyKey(prefix: string, requestId: string): string {
  return `${prefix}:res:reply:${requestId}`;
}

/**
 * Keys of the run list indexes of one tenant (or of no tenant): sorted sets whose members are
 * `<createdAt, 15 digits>:<stored run id>` (all scores 0), so a lexicographic range is a
 * created-time range and a member is an exact, stable cursor. They share the hash tag
 * `{x:<tenant>}` (`{x:~}` without a tenant: `~` is no tenant character), apart from the run
 * keys: they are written as separate idempotent writes, never inside a run script (ARCHITECTURE §9).
 */
export interface RunIndexKeys {
  /** Every run of the tenant. */
  all: string;
  /** Runs of one agent. */
  agent(agentId: string): string;
  /** The child runs of one tree, by the stored root run id (the root itself is read from its record). */
  root(rootRunId: string): string;
  /** Runs on one conversation, by the stored conversation id. */
  conversation(conversationId: string): string;
  /** The firings of one schedule, by the stored schedule id. */
  schedule(scheduleId: string): string;
}

export function runIndexKeys(prefix: string, tenant: string | undefined): RunIndexKeys {
  const base = `${prefix}:runs:{x:${tenant ?? '~'}}`;
  return {
    all: `${base}:all`,
    agent: (agentId) => `${base}:agent:${agentId}`,
    root: (rootRunId) => `${base}:root:${rootRunId}`,
    conversation: (conversationId) => `${base}:conv:${conversationId}`,
    schedule: (scheduleId) => `${base}:schedule:${scheduleId}`,
  };
}

/**
 * BullMQ's prefix: every agent queue under ONE hash tag (`{q}`), because BullMQ's scripts
 * touch a parent's and its children's queues together and a run tree spans agents (so queues).
 * Our own run and conversation keys keep their `{r:…}` / `{c:…}` tags and spread across slots.
 */
export function bullmqPrefix(prefix: string): string {
  return `${prefix}:{q}`;
}

export interface WorkerRegistryKeys {
  /** Hash of worker id → its announcement (JSON). */
  workers: string;
  /** Sorted set of worker id → when its announcement expires (Redis time, epoch ms). */
  expiries: string;
  /**
   * Hash of build id → the agents (JSON list) its pinned workers served, for every build runs
   * were pinned to that may still have runs (worker versioning: `runs/waiting-runs-report.ts`).
   */
  builds: string;
}

/** The worker registry: both keys under one tag, so one script keeps them consistent. */
export function workerRegistryKeys(prefix: string): WorkerRegistryKeys {
  const base = `${prefix}:{workers}`;
  return { workers: `${base}:live`, expiries: `${base}:expiries`, builds: `${base}:builds` };
}

/**
 * Keys of the fleet-wide count of runs waiting at the gate (`gate/waiting-runs.ts`), all under
 * the tag `{waiting}`: written as separate idempotent writes after the run record's own script,
 * never inside it (ARCHITECTURE §9).
 */
export interface WaitingRunsKeys {
  /** Hash of run id → the group it waits in (`[kind, agentId]` JSON): the membership, the truth. */
  runs: string;
  /** Sorted set of run id → when it entered its group (epoch ms): the pruning order and fence. */
  since: string;
  /** Hash of group → how many runs wait in it, kept by the same scripts as the membership. */
  counts: string;
}

export function waitingRunsKeys(prefix: string): WaitingRunsKeys {
  const base = `${prefix}:{waiting}`;
  return { runs: `${base}:runs`, since: `${base}:since`, counts: `${base}:counts` };
}

/** The part of a hash tag naming a provider/model or a cap key: no braces, bounded length. */
function tagPart(value: string): string {
  const encoded = encodeURIComponent(value);
  return encoded.length <= 200 ? encoded : `${encoded.slice(0, 160)}~${simpleHash(encoded)}`;
}

/** A short, stable (non-cryptographic) hash, to keep long tag parts distinct. */
function simpleHash(text: string): string {
  let hash = 2166136261;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
  return (hash >>> 0).toString(16);
}

/**
 * The fleet-wide budget of one provider/model (`limits/model-budgets.ts`): one hash (request and
 * token schedules, a pause) under its own tag `{l:<provider>/<modelId>}`.
 */
export function modelBudgetKey(prefix: string, provider: string, modelId: string): string {
  return `${prefix}:limit:{l:${tagPart(`${provider}/${modelId}`)}}`;
}

/** Keys of one concurrency cap (`gate/concurrency-gate.ts`): an agent and a cap key. */
export interface ConcurrencyCapKeys {
  /** Sorted set of the run ids holding a place → when their lease lapses (Redis time, ms). */
  holders: string;
  /** Sorted set of the run ids parked at the cap → when they first waited (to wake the oldest first). */
  waiters: string;
}

/** Both keys under the cap's own tag `{k:<agentId>/<key>}`, so one script keeps them consistent. */
export function concurrencyCapKeys(prefix: string, agentId: string, capKey: string): ConcurrencyCapKeys {
  const base = `${prefix}:cap:{k:${tagPart(`${agentId}/${capKey}`)}}`;
  return { holders: `${base}:holders`, waiters: `${base}:waiters` };
}

/**
 * The schedules of one tenant (or of none): a hash of stored schedule id → its definition
 * (JSON), under `{s:<tenant>}`. BullMQ's job schedulers live in each agent's queue; this is the
 * list that finds them across agents.
 */
export function scheduleIndexKey(prefix: string, tenant: string | undefined): string {
  return `${prefix}:schedules:{s:${tenant ?? '~'}}`;
}
