/**
 * A child agent awaited inside a run. In this issue the child runs IN-PROCESS as a nested
 * agent context of the same run; its result (or error) is journaled at the parent's position,
 * so a replay of the parent does not run a finished child again. Issue 4 swaps this module for
 * child jobs with suspension; nothing else calls children.
 */
import type { AgentContext } from '../context/agent-context.js';
import { durableStep } from '../engine/durable-step.js';
import { AbortError } from '../errors/abort-error.js';
import { MaxDepthExceededError } from '../errors/max-depth-exceeded-error.js';
import { serializeError } from '../errors/serialize-error.js';
import type { AgentDefinition } from './agent-definition.js';
import { invokeAgent } from './invoke-agent.js';

/** How deep agents may nest before the call is refused. */
export const MAX_AGENT_DEPTH = 50;

/**
 * Calls `definition` as a child of `parent` and returns its result.
 * @throws MaxDepthExceededError past {@link MAX_AGENT_DEPTH}; the child's error (recorded, so a replay throws it again)
 */
export async function callChild(
  parent: AgentContext,
  definition: AgentDefinition,
  props: unknown,
): Promise<unknown> {
  const position = parent.nextPosition('agent', definition.id);
  if (parent.depth + 1 > MAX_AGENT_DEPTH) throw new MaxDepthExceededError(MAX_AGENT_DEPTH, position);
  const { run } = parent;
  const event = { callPath: parent.callPath, agentId: definition.id, childCallPath: position };
  if (!run.journal.has(position)) run.emit({ type: 'child-start', ...event });
  try {
    const { value, replayed } = await durableStep(parent, {
      kind: 'child',
      position,
      fingerprint: `agent:${definition.id}`,
      execute: () => invokeAgent({ definition, props, run, callPath: position, parent }),
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
