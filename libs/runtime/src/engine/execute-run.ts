/**
 * `executeDefinition`: executes (or replays) one run of a root agent against its
 * {@link RunServices}. The worker calls it (through `executeRun` in `agent/`) once per job
 * attempt; embedded mode calls it with in-memory services. Everything already in the journal is
 * served from it; the rest is executed and recorded. The agent layer hands in `invoke` (the
 * generation loop), so the engine never imports the layer above it.
 */
import { isDeepStrictEqual } from 'node:util';
import type { AgentContext } from '../context/agent-context.js';
import type { AgentDefinition } from '../context/agent-definition.js';
import type { LoadedJournal, RunOutcome, RunServices, RunSuspension } from '../context/run-services.js';
import { RunState } from '../context/run-state.js';
import { MAX_PENDING_STEPS, TooManyPendingStepsError } from '../errors/patch-errors.js';
import { AbortError } from '../errors/run-errors.js';
import { serializeError } from '../errors/serialize-error.js';
import { SETTLED } from '../shared/settled.js';
import { statsFromTotals } from '../usage/usage-stats.js';
import { earliestWakeAt } from './suspend-until.js';

/** Runs the root invocation of a run to its result (the agent layer's `invokeAgent`). */
export type InvokeRootAgent = (options: {
  definition: AgentDefinition;
  props: unknown;
  run: RunState;
  callPath: string;
  parent: undefined;
  /** Handed the root invocation's context once it exists. */
  onContext?: (context: AgentContext) => void;
}) => Promise<unknown>;

/** The callPath of a run's root agent invocation. */
export function rootCallPath(agentId: string): string {
  return `root/agent:${agentId}:0`;
}

/**
 * Runs the agent to completion and returns its output with the usage of live model turns (and
 * of child runs recorded by this execution). Emits `run-start` and `run-end` and flushes the
 * event sink before settling. With a child runner in the services, the execution may instead
 * suspend: it then resolves with `suspended` set (and emits `run-suspended`, not `run-end`).
 * @throws the agent's error (after `run-end` with status `failed`, or `cancelled` for an AbortError)
 */
export function executeDefinition(
  definition: AgentDefinition,
  input: unknown,
  services: RunServices,
  invoke: InvokeRootAgent,
): Promise<RunOutcome> {
  return new Promise<RunOutcome>((resolve, reject) =>
    startDefinition(definition, input, services, invoke, { resolve, reject }),
  );
}

/** Where {@link startDefinition} reports how the execution ended (once). */
export interface RunSettle {
  resolve(outcome: RunOutcome): void;
  reject(error: unknown): void;
}

/**
 * {@link executeDefinition} reporting to `settle` instead of a promise of its own: the worker's
 * supervision settles its one promise from these callbacks. Callbacks, not an async function
 * awaiting the load, a race and the flush: every promise pays the async-context hooks, and this
 * runs once per execution.
 */
export function startDefinition(
  definition: AgentDefinition,
  input: unknown,
  services: RunServices,
  invoke: InvokeRootAgent,
  settle: RunSettle,
): void {
  const loaded = (journal: LoadedJournal) => {
    try {
      const run = new RunState(services, journal);
      new RootExecution(definition, input, services, run, settle).start(invoke);
    } catch (error) {
      settle.reject(error);
    }
  };
  try {
    services.journal.load().then(loaded, (error: unknown) => settle.reject(error));
  } catch (error) {
    settle.reject(error);
  }
}

/**
 * The body of {@link executeDefinition} once the journal is loaded, as callbacks: the root
 * invocation raced against the suspension of every step, its `run-end` (or `run-suspended`),
 * and the closing flush, which settles last whatever the outcome (a `finally`).
 */
class RootExecution {
  readonly #definition: AgentDefinition;
  readonly #input: unknown;
  readonly #services: RunServices;
  readonly #run: RunState;
  readonly #callPath: string;
  readonly #settle: RunSettle;
  #root: AgentContext | undefined;

  constructor(
    definition: AgentDefinition,
    input: unknown,
    services: RunServices,
    run: RunState,
    settle: RunSettle,
  ) {
    this.#definition = definition;
    this.#settle = settle;
    this.#input = input;
    this.#services = services;
    this.#run = run;
    this.#callPath = services.placement?.callPath ?? rootCallPath(definition.id);
  }

  /** Emits `run-start` (a throw rejects without `run-end` or flush) and invokes the root agent. */
  start(invoke: InvokeRootAgent): void {
    const run = this.#run;
    const callPath = this.#callPath;
    run.emit({ type: 'run-start', callPath, agentId: this.#definition.id, input: this.#input });
    let invocation: Promise<unknown>;
    try {
      invocation = invoke({
        definition: this.#definition,
        props: this.#input ?? {},
        run,
        callPath,
        parent: undefined,
        onContext: (context) => {
          this.#root = context;
        },
      });
    } catch (error) {
      this.#failed(error);
      return;
    }
    // A race by callbacks (the first wins): `Promise.race` and `allBlocked.then` would add promises.
    let raced = false;
    invocation.then(
      (output) => {
        if (raced) return;
        raced = true;
        this.#finished(output);
      },
      (error: unknown) => {
        if (raced) return;
        raced = true;
        this.#failed(error);
      },
    );
    run.steps.whenAllBlocked(() => {
      if (raced) return;
      raced = true;
      this.#resolveWith(() => suspend(run, callPath, invocation));
    });
  }

  /** The invocation returned: the child run's stats kept when it needs them, then `run-end`. */
  #finished(output: unknown): void {
    const run = this.#run;
    const root = this.#root;
    if (!keepsChildRunStats(run, root)) {
      this.#succeeded(output);
      return;
    }
    // A failure to store is logged, not thrown; should the logging itself throw, the run fails.
    storeChildRunStats(run, root).then(
      () => this.#succeeded(output),
      (error: unknown) => this.#endFailed(error),
    );
  }

  #succeeded(output: unknown): void {
    const run = this.#run;
    this.#resolveWith(() => {
      const outcome: RunOutcome = { output, usage: run.usage, modelCalls: run.modelCalls };
      run.emit({
        type: 'run-end',
        callPath: this.#callPath,
        status: 'succeeded',
        output,
        ...usageOf(outcome),
      });
      return outcome;
    });
  }

  /** Settles with what `outcomeOf` gives once the events are flushed; fails the run if it throws. */
  #resolveWith(outcomeOf: () => RunOutcome): void {
    let outcome: RunOutcome;
    try {
      outcome = outcomeOf();
    } catch (error) {
      this.#failed(error);
      return;
    }
    this.#flushThen(() => this.#settle.resolve(outcome));
  }

  /** The run failed (or was cancelled): `run-end` with the error, then the flush, then the rejection. */
  #failed(error: unknown): void {
    const run = this.#run;
    const root = this.#root;
    if (keepsChildRunStats(run, root)) {
      const end = () => this.#endFailed(error);
      storeChildRunStats(run, root).then(end, end);
      return;
    }
    this.#endFailed(error);
  }

  #endFailed(error: unknown): void {
    let thrown = error;
    try {
      const run = this.#run;
      // The run's abort, when it has one, says so without making its signal.
      const aborted = (this.#services.abort ?? this.#services.signal).aborted;
      const status = AbortError.is(error) || aborted ? 'cancelled' : 'failed';
      run.emit({
        type: 'run-end',
        callPath: this.#callPath,
        status,
        error: serializeError(error),
        ...usageOf(run),
      });
    } catch (emitError) {
      // As a `catch` block that throws: its error is the one the run rejects with.
      thrown = emitError;
    }
    this.#flushThen(() => this.#settle.reject(thrown));
  }

  /**
   * The closing flush, then `done`; a flush that fails rejects with its error instead. The
   * worker's sink has nothing to flush once it holds the run-end: no promise (and tick) then.
   */
  #flushThen(done: () => void): void {
    let flushing: Promise<void>;
    try {
      flushing = this.#services.events.flush();
    } catch (error) {
      this.#settle.reject(error);
      return;
    }
    if (flushing === SETTLED) done();
    else flushing.then(done, (error: unknown) => this.#settle.reject(error));
  }
}

/**
 * A child run that ended keeps its usage stats (items and costs) in its tree's usage, where its
 * parent reads them when it adopts the outcome (`ChildResolution.stats`). Best effort: without
 * them the parent rolls up the record's token totals.
 */
function keepsChildRunStats(run: RunState, root: AgentContext | undefined): root is AgentContext {
  if (!run.services.placement || !root || run.suspended) return false;
  // Stats the parent would rebuild from the record's totals alike (no items, costs or other
  // fields: a child that called no model, the wide trees' common leaf) are not worth a write.
  return !isDeepStrictEqual(root.usage.aggregate, statsFromTotals(run.usage, run.modelCalls));
}

/** Stores them (see {@link keepsChildRunStats}). */
async function storeChildRunStats(run: RunState, root: AgentContext): Promise<void> {
  try {
    await run.treeUsage.storeRunStats(run.runId, root.usage.aggregate);
  } catch (error) {
    run.services.logger?.warn(
      { err: error },
      'child run usage stats not stored; the parent counts its token totals',
    );
  }
}

/**
 * Every durable operation waits on a child run or a `suspendUntil` wait: abandon this execution
 * (see {@link RunState.suspend}).
 * @throws TooManyPendingStepsError when more steps wait than a suspension can store
 */
function suspend(run: RunState, callPath: string, invocation: Promise<unknown>): RunOutcome {
  const pendingChildren = [...run.pendingChildren];
  const waits = [...run.pendingWaits];
  // Every in-flight step is blocked: their positions are where this execution stopped.
  const pendingSteps = run.steps.positions();
  if (pendingSteps.length > MAX_PENDING_STEPS) {
    // Abandoned all the same: the run fails, nothing of this execution records any more.
    run.suspend();
    invocation.catch(() => {});
    throw new TooManyPendingStepsError(run.runId, pendingSteps.length, MAX_PENDING_STEPS);
  }
  const suspended: RunSuspension = { pendingChildren, pendingSteps };
  if (waits.length > 0) {
    suspended.waits = waits;
    const wakeAt = earliestWakeAt(waits);
    if (wakeAt !== undefined) suspended.wakeAt = wakeAt;
  }
  run.emit({
    type: 'run-suspended',
    callPath,
    pendingChildren,
    ...(waits.length > 0 && { waitingFor: waits.map((wait) => wait.waitingFor) }),
    ...usageOf(run),
  });
  run.suspend();
  // The abandoned handler never settles normally; a late cancel may still reject it.
  invocation.catch(() => {});
  return { output: undefined, usage: run.usage, modelCalls: run.modelCalls, suspended };
}

function usageOf(source: { usage: RunOutcome['usage']; modelCalls: number }) {
  return { usage: source.usage, modelCalls: source.modelCalls };
}
