/**
 * A child agent awaited inside a run — the one place child calls happen. With a child runner
 * in the run's services (a worker) the child becomes a run of its own, a BullMQ child job
 * (`call-child-run.ts`); without one (embedded mode) it runs in-process as a nested agent
 * context of the same run. Either way its outcome is journaled at the parent's position, so a
 * replay of the parent does not run a finished child again.
 */
import type { AgentContext } from '../context/agent-context.js';
import type { AgentDefinition } from '../context/agent-definition.js';
import { assertJsonValue } from '../context/clone-json-value.js';
import { durableStep } from '../engine/durable-step.js';
import { hashJson } from '../engine/fingerprint.js';
import { applyUsage } from '../engine/usage-budget.js';
import { MaxDepthExceededError } from '../errors/agent-errors.js';
import { AbortError } from '../errors/run-errors.js';
import { serializeError } from '../errors/serialize-error.js';
import { cloneUsageStats } from '../usage/usage-stats.js';
import { callChildRun, type PositionedChildCall } from './call-child-run.js';
import { invokeAgent } from './invoke-agent.js';

/** How deep agents may nest before the call is refused. */
export const MAX_AGENT_DEPTH = 50;

/**
 * Calls `definition` as a child of `parent` and returns its result.
 * @throws MaxDepthExceededError past {@link MAX_AGENT_DEPTH}
 * @throws FanOutLimitExceededError past the run's child call limit
 * @throws TypeError on a worker when `props` are not JSON (they travel in the job)
 * @throws NonPortableJsonError embedded, when `props` hold a Date, Map, function … (see `json/canonical-json.ts`)
 * @throws the child's error, rebuilt by name (recorded, so a replay throws it again)
 */
export async function callChild(
  parent: AgentContext,
  definition: AgentDefinition,
  props: unknown,
): Promise<unknown> {
  const position = parent.nextPosition('agent', definition.id);
  if (parent.depth + 1 > MAX_AGENT_DEPTH) throw new MaxDepthExceededError(MAX_AGENT_DEPTH, position);
  parent.run.countChildCall(position);
  const runner = parent.run.services.children;
  // Props travel in a child run's job: refuse non-JSON with the documented TypeError before hashing.
  if (runner) assertJsonValue(props, `props of child agent "${definition.id}"`);
  const call = { parent, definition, props, position, fingerprint: childFingerprint(definition.id, props) };
  return runner ? callChildRun(call, runner) : callChildInProcess(call);
}

/** What a child call asks for: the agent and a hash of its props. */
export function childFingerprint(agentId: string, props: unknown): string {
  return `agent:${agentId}:${hashJson(props, `Props of child agent "${agentId}"`)}`;
}

async function callChildInProcess(call: PositionedChildCall): Promise<unknown> {
  const { parent, definition, props, position } = call;
  const { run } = parent;
  const event = { callPath: parent.callPath, agentId: definition.id, childCallPath: position };
  if (!run.journal.has(position)) run.emit({ type: 'child-start', ...event });
  // The child's live usage reached this agent through the context chain as it was recorded; its
  // total is journaled with the outcome so a replay (which skips the child) rebuilds it.
  let child: AgentContext | undefined;
  try {
    const { value, replayed } = await durableStep(parent, {
      kind: 'child',
      position,
      fingerprint: call.fingerprint,
      execute: () =>
        invokeAgent({
          definition,
          props,
          run,
          callPath: position,
          parent,
          onContext: (context) => {
            child = context;
          },
        }),
      usage: () => child && cloneUsageStats(child.usage.aggregate),
      onReplay: (recorded) => {
        if (recorded.usage) applyUsage(parent, recorded.usage, false);
      },
      // Cancellation is not an outcome of the child: a resumed run must run it again.
      recordFailure: (error) => !AbortError.is(error),
    });
    run.emit({ type: 'child-end', ...event, ok: true, replayed });
    return value;
  } catch (error) {
    run.emit({ type: 'child-end', ...event, ok: false, replayed: false, error: serializeError(error) });
    throw error;
  }
}
