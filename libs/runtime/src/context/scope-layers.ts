import type { AgentContext } from './agent-context.js';

/**
 * The scope layers `context` sees, outermost first: the run's submit-time layers (for a child
 * run, the layers captured from its caller when it was enqueued), then every ancestor's and
 * this agent's `equipScope` layers of their current generation (root first).
 */
export function scopeLayersOf(context: AgentContext): Record<string, unknown>[] {
  const chain: AgentContext[] = [];
  for (let current: AgentContext | undefined = context; current; current = current.parent)
    chain.unshift(current);
  return [...(context.run.services.scope ?? []), ...chain.flatMap((item) => item.draft.scopeLayers)];
}
