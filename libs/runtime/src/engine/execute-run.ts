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
import type { RunOutcome, RunServices, RunSuspension } from '../context/run-services.js';
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
export async function executeDefinition(
  definition: AgentDefinition,
  input: unknown,
  services: RunServices,
  invoke: InvokeRootAgent,
): Promise<RunOutcome> {
  const run = new RunState(services, await services.journal.load());
  const callPath = services.placement?.callPath ?? rootCallPath(definition.id);
  run.emit({ type: 'run-start', callPath, agentId: definition.id, input });
  let root: AgentContext | undefined;
  try {
    const invocation = invoke({
      definition,
      props: input ?? {},
      run,
      callPath,
      parent: undefined,
      onContext: (context) => {
        root = context;
      },
    });
    // A race by callbacks: `Promise.race` and `allBlocked.then` would add four promises per run.
    const finished = await new Promise<unknown>((resolve, reject) => {
      invocation.then(resolve, reject);
      run.steps.whenAllBlocked(() => resolve(SUSPENDED));
    });
    if (finished === SUSPENDED) return suspend(run, callPath, invocation);
    if (keepsChildRunStats(run, root)) await storeChildRunStats(run, root);
    const output = finished;
    const outcome: RunOutcome = { output, usage: run.usage, modelCalls: run.modelCalls };
    run.emit({ type: 'run-end', callPath, status: 'succeeded', output, ...usageOf(outcome) });
    return outcome;
  } catch (error) {
    if (keepsChildRunStats(run, root)) await storeChildRunStats(run, root);
    const status = AbortError.is(error) || services.signal.aborted ? 'cancelled' : 'failed';
    run.emit({ type: 'run-end', callPath, status, error: serializeError(error), ...usageOf(run) });
    throw error;
  } finally {
    // The worker's sink has nothing to flush once it holds the run-end: no await (and tick) then.
    const flushing = services.events.flush();
    if (flushing !== SETTLED) await flushing;
  }
}

const SUSPENDED = Symbol('suspended');

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
