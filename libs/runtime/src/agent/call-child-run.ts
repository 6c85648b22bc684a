/**
 * A child call in worker mode: the child is a run of its own (a BullMQ child job with a
 * deterministic id), never executed in this process. The call returns the recorded outcome on
 * replay; otherwise it asks the run's {@link ChildRunner}: a finished child run is recorded
 * now (its usage rolls up into this run), a pending one leaves the call waiting — it never
 * settles in this execution, and once every durable operation of the run waits like this the
 * run suspends and is replayed when its children end.
 */

import type { AgentContext } from '../context/agent-context.js';
import type { AgentDefinition } from '../context/agent-definition.js';
import type { ChildResolution, ChildRunner } from '../context/child-runner.js';
import type { RunState } from '../context/run-state.js';
import { durableStep } from '../engine/durable-step.js';
import { applyUsage, recordUsage } from '../engine/usage-budget.js';
import { AbortError } from '../errors/run-errors.js';
import { deserializeError, serializeError } from '../errors/serialize-error.js';
import { abortReason, whenAborted } from '../shared/when-aborted.js';
import { statsFromTotals, type UsageStats } from '../usage/usage-stats.js';

/** What a settled child run spent, and whether its stats were stored in the tree (to drop them). */
interface ChildSpend {
  stats?: UsageStats;
  stored?: boolean;
}

/** One child call, positioned and fingerprinted. */
export interface PositionedChildCall {
  parent: AgentContext;
  definition: AgentDefinition;
  props: unknown;
  position: string;
  fingerprint: string;
}
/**
 * How many child runs one call may start when earlier ones failed transiently (their
 * resource owner's worker died); the last failure is then the call's outcome.
 */
export const MAX_CHILD_RUN_ATTEMPTS = 5;

/**
 * Calls the child as a child run.
 * @throws TypeError when the props are not JSON (checked by `callChild`, as they travel in the job)
 * @throws the child run's error, rebuilt by name; AbortError when this agent is cancelled
 */
export async function callChildRun(call: PositionedChildCall, runner: ChildRunner): Promise<unknown> {
  const { parent, definition, position } = call;
  const { run } = parent;
  const event = { callPath: parent.callPath, agentId: definition.id, childCallPath: position };
  const ids: { childRunId?: string } = {};
  const spent: ChildSpend = {};
  try {
    const { value, replayed } = await durableStep(parent, {
      kind: 'child',
      position,
      fingerprint: call.fingerprint,
      execute: () => settleChildRun(call, runner, ids, spent),
      usage: () => journaledStats(spent),
      // A success is an ended child's outcome read from its record, which stays: lost in a crash,
      // the replay reads it again. Recorded with the run's next write (its end, as a rule) unless
      // the child left stats to drop once it is recorded (`forgetChildStats`).
      deferRecord: () => spent.stored === false,
      onReplay: (recorded) => {
        if (recorded.usage) applyUsage(parent, recorded.usage, false);
      },
      // The child's failure (or cancellation) is its outcome; this agent's own abort is not.
      recordFailure: () => !parent.signal.aborted,
    });
    forgetChildStats(run, position, ids.childRunId, spent);
    run.emit({ type: 'child-end', ...event, ok: true, replayed, ...ids });
    return value;
  } catch (error) {
    forgetChildStats(run, position, ids.childRunId, spent);
    run.emit({
      type: 'child-end',
      ...event,
      ok: false,
      replayed: false,
      error: serializeError(error),
      ...ids,
    });
    throw error;
  }
}

async function settleChildRun(
  call: PositionedChildCall,
  runner: ChildRunner,
  ids: { childRunId?: string },
  spent: ChildSpend,
): Promise<unknown> {
  const { parent, definition, position } = call;
  const { run } = parent;
  // The props were checked to be JSON by `callChild` (the one caller) before they were hashed.
  for (let attempt = recordedAttempts(run, position); ; attempt++) {
    const resolution = await runner.resolve({ ...call, attempt });
    ids.childRunId = resolution.childRunId;
    if (resolution.state === 'retry' && attempt + 1 < MAX_CHILD_RUN_ATTEMPTS) {
      await recordAttempt(run, position, attempt + 1, resolution.childRunId);
      continue;
    }
    if (resolution.state === 'pending') {
      if (resolution.enqueued) {
        run.emit({
          type: 'child-start',
          callPath: parent.callPath,
          agentId: definition.id,
          childCallPath: position,
          childRunId: resolution.childRunId,
        });
      }
      return waitForChildRun(call, resolution.childRunId);
    }
    return finishedValue(parent, resolution, spent);
  }
}

/**
 * The child run's outcome; its usage rolls up into this run's totals and, as one record, into
 * the calling invocation's aggregate (its `onUpdate` callbacks run then: a child run elsewhere
 * cannot call back into this process while it runs).
 */
async function finishedValue(
  parent: AgentContext,
  resolution: Exclude<ChildResolution, { state: 'pending' }>,
  spent: ChildSpend,
): Promise<unknown> {
  if (resolution.state === 'retry') throw deserializeError(resolution.error);
  parent.run.addChildUsage(resolution.usage, resolution.modelCalls);
  const stats = resolution.stats ?? statsFromTotals(resolution.usage, resolution.modelCalls);
  spent.stats = stats;
  spent.stored = resolution.stats !== undefined;
  if (stats.callCount > 0 || stats.items.length > 0) await recordUsage(parent, stats, { own: false });
  if (!resolution.outcome.ok) throw deserializeError(resolution.outcome.error);
  return resolution.outcome.value;
}

/**
 * The stats journaled with the child's outcome: none for a child that spent nothing (a replay
 * then applies nothing, as it would have applied zeros), which keeps ~100 bytes of zeros out of
 * each entry; kept when they were stored in the tree, whose copy is dropped once journaled.
 */
function journaledStats(spent: ChildSpend): UsageStats | undefined {
  const { stats } = spent;
  if (stats === undefined || spent.stored !== false || !isEmptyStats(stats)) return stats;
  return undefined;
}

function isEmptyStats(stats: UsageStats): boolean {
  return (
    stats.callCount === 0 &&
    stats.promptTokens === 0 &&
    stats.completionTokens === 0 &&
    stats.totalTokens === 0 &&
    stats.items.length === 0 &&
    stats.details === undefined &&
    Object.keys(stats.costs).length === 0
  );
}

/**
 * Once the child's outcome (and its usage) is journaled here, its stored stats are not needed
 * again: dropped from the tree's hash, best effort (they expire with it otherwise).
 */
function forgetChildStats(
  run: RunState,
  position: string,
  childRunId: string | undefined,
  spent: ChildSpend,
): void {
  if (childRunId === undefined || !spent.stored || !run.journal.get(position)?.usage) return;
  run.treeUsage
    .dropRunStats(childRunId)
    .catch((error: unknown) =>
      run.services.logger?.warn({ err: error, childRunId }, 'child usage stats not dropped'),
    );
}

/** Never resolves in this execution; rejects when the calling agent is cancelled. */
function waitForChildRun(call: PositionedChildCall, childRunId: string): Promise<never> {
  const { run, signal } = call.parent;
  run.pendingChildren.add(childRunId);
  run.steps.blockCurrent();
  return whenAborted(signal).then(() => {
    throw new AbortError(abortReason(signal));
  });
}

/**
 * Child runs retried at this position so far. Attempt n (n ≥ 1) is recorded at
 * `<position>/attempt:<n>` when attempt n − 1 failed transiently; first write wins, so two
 * executions racing agree on the attempt and thus on the child run id.
 */
function recordedAttempts(run: RunState, position: string): number {
  let attempts = 0;
  while (run.journal.has(attemptPosition(position, attempts + 1))) attempts++;
  return attempts;
}

async function recordAttempt(run: RunState, position: string, attempt: number, failedRunId: string) {
  await run.record(attemptPosition(position, attempt), {
    kind: 'child',
    fingerprint: 'child-attempt',
    outcome: { ok: true, value: { failedRunId } },
    at: Date.now(),
  });
}

function attemptPosition(position: string, attempt: number): string {
  return `${position}/attempt:${attempt}`;
}
