/**
 * `replayRun(agent, exported)`: replays the current code of an agent against a recorded run (a
 * run export), in memory — no Redis, no model call, no tool call, no child run — and reports the
 * first divergence: what Temporal's `Replayer` does for workflow histories, for a CI test that
 * a change is safe for the runs in flight.
 *
 * Every durable step is served from the exported journal; child calls from the exported child
 * runs' outcomes. Nothing is executed: a step with no recorded entry is
 * - a divergence (`added`) when the recorded run went on past that point (or ended) without it;
 * - else the end of what was recorded (a run still in flight, or a step it was suspended on when
 *   it ended): the replay stops there, `complete: false`.
 * Resources (`equipResource`, MCP kits) get a stand-in that fails if the handler uses it outside a
 * recorded step (where the real one would have run); durable waits are served from the journal.
 */
import { agentDefinitionOf } from '../agent/create-agent.js';
import { executeAgentDefinition } from '../agent/execute-run.js';
import type { AgentContext } from '../context/agent-context.js';
import type { AnyAgent } from '../context/agent-definition.js';
import type {
  JournalEntry,
  JournalEntryKind,
  LoadedJournal,
  ReplayOnly,
  RunJournal,
  RunServices,
} from '../context/run-services.js';
import { createEmbeddedServices } from '../embedded/create-embedded-services.js';
import { InMemoryRunMemoryStore } from '../embedded/in-memory-run-memory-store.js';
import { recordedPastThisPoint } from '../engine/journal-frontier.js';
import { NonDeterminismError, type StepIdentity } from '../errors/run-errors.js';
import { deserializeError, type SerializedError, serializeError } from '../errors/serialize-error.js';
import { qualifyId } from '../jobs/tenant-ids.js';
import { portableJson } from '../json/canonical-json.js';
import type { AnyModelAdapter } from '../model/stream-model-adapter.js';
import type { HashedDeps } from '../resources/deps-hash.js';
import type { ResourceFactory, ResourceLease } from '../resources/resource-registry.js';
import { ResourceRegistry } from '../resources/resource-registry.js';
import { RunResources } from '../resources/run-resources.js';
import { isTerminalStatus } from '../runs/run-status.js';
import type {
  ConversationStore,
  LoadConversationOptions,
  StoredConversation,
} from '../store/conversation-store.js';
import { ReplayResourceUsedError, ReplayWaitUsedError } from './replay-errors.js';
import type { ExportedChildRun, ExportedConversation, RunExport } from './run-export.js';
import { parseRunExport } from './run-export.js';

/** Options of {@link replayRun}. */
export interface ReplayRunOptions {
  /**
   * The models string model ids name (`createAgent({ model: 'gpt' })`), as the worker has them;
   * never called (their provider and id are part of a model turn's fingerprint). @default none
   */
  models?: Record<string, AnyModelAdapter> | ReadonlyMap<string, AnyModelAdapter>;
  /** For the export of a child run whose agent has no model: the id (in `models`) of its caller's. */
  inheritedModelId?: string;
  /** The scope layers the run was submitted with (not exported). @default none */
  scope?: Record<string, unknown>[];
}

/** How the current code diverged from the recorded run. */
export interface ReplayDivergence {
  /**
   * `changed`: another call at a recorded position (kind or fingerprint); `added`: a call the
   * recorded run never made, though it went on past it; `removed`: a recorded call the current
   * code never makes; `result`: every call matched, but the run ends with another output or error.
   */
  kind: 'changed' | 'added' | 'removed' | 'result';
  /** The journal position (for `result`: the run's root callPath). */
  position: string;
  /** What the journal holds there (kind and fingerprint); none for `added` and `result`. */
  recorded?: StepIdentity;
  /** What the current code asks for; none for `removed` and `result`. */
  current?: StepIdentity;
  /** Parts of the fingerprint that differ (`model`, `tools`, `prompt` …) for `changed`. */
  changed: string[];
  message: string;
}

/** What {@link replayRun} found. */
export interface ReplayResult {
  /** No divergence. */
  ok: boolean;
  /**
   * The code ran to its end (returned or threw). `false`: it stopped where the recorded run had
   * not got further (a run still in flight); what was replayed up to there matched when `ok`.
   */
  complete: boolean;
  divergence?: ReplayDivergence;
  /** The replay's output, when it completed with one. */
  output?: unknown;
  /** The replay's error, when it completed with one. */
  error?: SerializedError;
  /** Journal entries (and child outcomes) the replay served. */
  servedSteps: number;
}

/**
 * Replays the current code of `agent` against the run in `exported` (checked with
 * `parseRunExport`), in memory, and reports the first divergence. In a vitest test:
 *
 * ```ts
 * const exported = JSON.parse(await readFile('fixtures/run-42.json', 'utf8'));
 * const result = await replayRun(WriterAgent, exported);
 * expect(result.divergence).toBeUndefined();
 * ```
 * @throws InvalidRunExportError / RunExportTooLargeError for a document that is not a run export
 * @throws TypeError when `agent` is not made by createAgent, or is not the agent the run ran
 */
export async function replayRun(
  agent: AnyAgent,
  exported: unknown,
  options: ReplayRunOptions = {},
): Promise<ReplayResult> {
  const document = parseRunExport(exported);
  const definition = agentDefinitionOf(agent);
  if (definition.id !== document.run.agentId)
    throw new TypeError(
      `replayRun: the run was recorded by agent "${document.run.agentId}", not "${definition.id}". Pass that agent.`,
    );
  const replay = new Replay(document);
  const services = replayServices(document, replay, options);
  const callPath = document.run.callPath;
  let outcome: { ok: true; output: unknown } | { ok: false; error: unknown } | undefined;
  try {
    const result = await executeAgentDefinition(definition, document.input, services);
    if (!result.suspended) outcome = { ok: true, output: result.output };
  } catch (error) {
    outcome = { ok: false, error };
  }
  const base = { servedSteps: replay.journal.servedCount + replay.servedChildren };
  const complete = outcome !== undefined;
  const divergence =
    replay.divergence ??
    (outcome ? (replay.removed() ?? resultDivergence(document, outcome, callPath)) : undefined);
  const result: ReplayResult = { ok: divergence === undefined, complete, ...base };
  if (divergence) result.divergence = divergence;
  if (outcome?.ok) result.output = outcome.output;
  if (outcome && !outcome.ok) result.error = serializeError(outcome.error);
  return result;
}

/** The journal of a replay: the exported entries, with the positions the replay read. */
class ReplayJournal implements RunJournal {
  readonly entries: ServedEntries;

  constructor(document: RunExport) {
    this.entries = new ServedEntries(
      document.journal.map(({ position, entry }) => [position, entry]),
      document.pendingSteps ?? [],
    );
  }

  get servedCount(): number {
    return this.entries.served.size;
  }

  async load(): Promise<LoadedJournal> {
    return this.entries;
  }

  /** Nothing is stored: a replay records only patch markers, which it then forgets. */
  async record(): Promise<void> {}
}

/**
 * The loaded journal, remembering every position read (`get`) by the replay, with the steps the
 * recorded run last suspended on (`patched()` counts them as reached, as on a worker).
 */
class ServedEntries extends Map<string, JournalEntry> {
  readonly served = new Set<string>();
  readonly pendingSteps: ReadonlySet<string>;

  constructor(entries: Iterable<[string, JournalEntry]>, pendingSteps: Iterable<string>) {
    super(entries);
    this.pendingSteps = new Set(pendingSteps);
  }

  override get(position: string): JournalEntry | undefined {
    const entry = super.get(position);
    if (entry && entry.kind !== 'patch') this.served.add(position);
    return entry;
  }
}

/** The state of one replay: what was served, and the first divergence. */
class Replay implements ReplayOnly {
  readonly journal: ReplayJournal;
  readonly #document: RunExport;
  readonly #children: Map<string, ExportedChildRun>;
  servedChildren = 0;
  divergence: ReplayDivergence | undefined;

  constructor(document: RunExport) {
    this.#document = document;
    this.journal = new ReplayJournal(document);
    this.#children = new Map(document.children.map((child) => [child.position, child]));
  }

  diverged(error: NonDeterminismError): void {
    this.divergence ??= {
      kind: error.recordedKind === 'nothing' ? 'added' : 'changed',
      position: error.position,
      ...(error.recordedKind === 'nothing'
        ? {}
        : { recorded: { kind: error.recordedKind, fingerprint: error.recordedFingerprint } }),
      current: { kind: error.requestedKind, fingerprint: error.requestedFingerprint },
      changed: error.changed,
      message: error.message,
    };
  }

  async unrecorded(
    context: AgentContext,
    step: { kind: JournalEntryKind; position: string; fingerprint: string },
  ): Promise<unknown> {
    const child = step.kind === 'child' ? this.#children.get(step.position) : undefined;
    if (child && isTerminalStatus(child.status)) return this.#childOutcome(child, step);
    // A step the recorded run suspended on is where it stopped (however far its other pending steps got).
    const pending = this.journal.entries.pendingSteps.has(step.position);
    if (
      child === undefined &&
      !pending &&
      (recordedPastThisPoint(context) || isTerminalStatus(this.#document.run.status))
    ) {
      const error = new NonDeterminismError(step.position, undefined, {
        kind: step.kind,
        fingerprint: step.fingerprint,
      });
      this.diverged(error);
      throw error;
    }
    // The end of what was recorded: block here, so the run suspends as a worker's would.
    const { steps } = context.run;
    const inFlight = steps.begin();
    steps.run(inFlight, () => steps.blockCurrent());
    return new Promise<never>(() => {});
  }

  #childOutcome(child: ExportedChildRun, step: { position: string; fingerprint: string }): unknown {
    if (child.fingerprint !== undefined && child.fingerprint !== step.fingerprint) {
      const error = new NonDeterminismError(
        step.position,
        { kind: 'child', fingerprint: child.fingerprint },
        { kind: 'child', fingerprint: step.fingerprint },
      );
      this.diverged(error);
      throw error;
    }
    this.servedChildren += 1;
    if (child.status === 'succeeded') return child.output;
    throw deserializeError(
      child.error ?? { name: 'Error', message: `child run ${child.runId} ${child.status}` },
    );
  }

  /** The first recorded entry (by time) the replay never read, unless it was skipped with its owner. */
  removed(): ReplayDivergence | undefined {
    const { entries } = this.journal;
    const unread = [...entries.entries()]
      .filter(([position, entry]) => entry.kind !== 'patch' && !entries.served.has(position))
      .filter(([position]) => !skippedWithOwner(position, entries))
      .sort(([, a], [, b]) => a.at - b.at);
    const first = unread[0];
    if (!first) return undefined;
    const [position, entry] = first;
    return {
      kind: 'removed',
      position,
      recorded: { kind: entry.kind, fingerprint: entry.fingerprint },
      changed: [],
      message:
        `Non-deterministic replay at ${position}: the journal recorded ${entry.kind} ${entry.fingerprint} but the ` +
        'current code never asks for it (a durable call was removed or moved). Keep the call for runs recorded ' +
        "before the change behind patched('<change-id>'), or let those runs finish on the build that started them.",
    };
  }
}

/**
 * Whether an unread entry belongs to one the replay served whole: an entry below a served
 * position (a served child's own steps, a served tool's approval), a tool's `reportProgress`
 * steps (`progress:<tool segment>:<n>` beside a served tool), or the steps of a generation that
 * ended with a served `reborn`.
 */
function skippedWithOwner(position: string, entries: ServedEntries): boolean {
  const segments = position.split('/');
  for (let end = segments.length - 1; end > 0; end--) {
    const prefix = segments.slice(0, end).join('/');
    if (entries.served.has(prefix)) return true;
    if (/^g\d+$/.test(segments[end - 1] ?? '') && entries.served.has(`${prefix}/reborn`)) return true;
  }
  const last = segments.at(-1) ?? '';
  const owner = /^progress:(.+):\d+$/.exec(last)?.[1];
  return owner !== undefined && entries.served.has([...segments.slice(0, -1), owner].join('/'));
}

function resultDivergence(
  document: RunExport,
  outcome: { ok: true; output: unknown } | { ok: false; error: unknown },
  callPath: string | undefined,
): ReplayDivergence | undefined {
  const { status, output, error } = document.run;
  const position = callPath ?? `root/agent:${document.run.agentId}:0`;
  let problem: string | undefined;
  if (status === 'succeeded') {
    if (!outcome.ok) problem = `it succeeded, the replay throws ${serializeError(outcome.error).name}`;
    else if (sameJson(output, outcome.output) === false) problem = 'it returned another output';
  } else if (status === 'failed') {
    const recordedName = error?.name;
    if (outcome.ok) problem = `it failed with ${recordedName}, the replay returns`;
    else if (recordedName !== undefined && serializeError(outcome.error).name !== recordedName)
      problem = `it failed with ${recordedName}, the replay throws ${serializeError(outcome.error).name}`;
  }
  if (problem === undefined) return undefined;
  return {
    kind: 'result',
    position,
    changed: [],
    message:
      `The replay made every recorded call, but ends otherwise than the recorded run: ${problem}. Code between ` +
      'durable calls changed what it computes from their results; guard the change with patched(), or make ' +
      'sure it is safe for the runs in flight.',
  };
}

/** Whether two values have the same canonical JSON (`undefined` when one has none). */
function sameJson(a: unknown, b: unknown): boolean | undefined {
  try {
    return portableJson(a ?? null) === portableJson(b ?? null);
  } catch {
    return undefined;
  }
}

function replayServices(document: RunExport, replay: Replay, options: ReplayRunOptions): RunServices {
  const memory = new InMemoryRunMemoryStore();
  for (const [callPath, values] of Object.entries(document.memory))
    for (const [key, value] of Object.entries(values)) void memory.set(callPath, key, value);
  const services: RunServices = createEmbeddedServices({
    runId: document.run.runId,
    journal: replay.journal,
    memory,
    ...(options.models === undefined ? {} : { models: options.models }),
    conversations: new ReplayConversations(document.conversations ?? []),
    ...(options.scope === undefined ? {} : { scope: options.scope }),
  });
  if (document.run.tenant !== undefined) services.tenant = document.run.tenant;
  // As a worker names it: a tenant's conversation id is qualified (the journal's fingerprints say so).
  if (document.run.conversationId !== undefined)
    services.conversationId = qualifyId(document.run.tenant, document.run.conversationId);
  services.replayOnly = replay;
  services.resources = new ReplayResources(document.run.runId);
  // Present so waits replay (a worker run has them); never called: unrecorded waits stop the replay.
  services.waits = {
    takeSignal: () => Promise.reject(new ReplayWaitUsedError('wait for a signal')),
    expectSignal: () => Promise.reject(new ReplayWaitUsedError('wait for a signal')),
    approvalOf: () => Promise.reject(new ReplayWaitUsedError('wait for an approval')),
    requestApproval: () => Promise.reject(new ReplayWaitUsedError('wait for an approval')),
  };
  const { callPath, parentRunId, rootRunId } = document.run;
  if (callPath !== undefined && parentRunId !== undefined && rootRunId !== undefined) {
    services.placement = { callPath, depth: depthOf(callPath), parentRunId, rootRunId };
    if (options.inheritedModelId !== undefined) services.placement.modelId = options.inheritedModelId;
  }
  return services;
}

/** The depth of an invocation at `callPath` (`root/agent:a:0` is 0; each `/g<n>/agent:…` adds one). */
function depthOf(callPath: string): number {
  return callPath.split('/').filter((segment) => segment.startsWith('agent:')).length - 1;
}

/**
 * The conversations of a replay: each at the versions the run loaded (exported); nothing is
 * ever appended (appends are durable steps, served from the journal).
 */
class ReplayConversations implements ConversationStore {
  readonly #byVersion: Map<string, StoredConversation>;

  constructor(conversations: readonly ExportedConversation[]) {
    this.#byVersion = new Map(
      conversations.map((item) => [`${item.conversationId}@${item.version}`, item.conversation]),
    );
  }

  async load(
    conversationId: string,
    options?: LoadConversationOptions,
  ): Promise<StoredConversation | undefined> {
    if (options?.version === undefined) return undefined;
    return structuredClone(this.#byVersion.get(`${conversationId}@${options.version}`));
  }

  async append(): Promise<never> {
    throw new ReplayWaitUsedError('append to a conversation');
  }
}

/** Resources of a replay: a stand-in per `equipResource`, never the real factory. */
class ReplayResources extends RunResources {
  constructor(runId: string) {
    super({ runId, registry: new ResourceRegistry() });
  }

  override acquire<T>(
    callPath: string,
    key: string,
    deps: HashedDeps,
    _factory: ResourceFactory<T>,
  ): Promise<ResourceLease<T>> {
    return super.acquire(callPath, key, deps, { create: () => standIn(key) as T });
  }
}

/** A value that is fine to hold and to await, and fails with ReplayResourceUsedError on any use. */
function standIn(key: string): unknown {
  const fail = (): never => {
    throw new ReplayResourceUsedError(key);
  };
  return new Proxy(function replayResource() {}, {
    get: (_target, property) => (property === 'then' || typeof property === 'symbol' ? undefined : fail()),
    set: fail,
    has: fail,
    apply: fail,
    construct: fail,
    ownKeys: fail,
    deleteProperty: fail,
    defineProperty: fail,
    getOwnPropertyDescriptor: fail,
  });
}
