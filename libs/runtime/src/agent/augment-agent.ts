import type { AgentFunction, AgentMiddleware } from '../context/agent-definition.js';
import { agentConfigOf } from './create-agent.js';

/**
 * A new agent whose middlewares are `agent`'s followed by `middlewares` (so the new ones run
 * inside the existing ones). `agent` itself is unchanged.
 */
export function augmentAgent<Props, Result>(
  agent: AgentFunction<Props, Result>,
  middlewares: AgentMiddleware<Props, Result>[],
): AgentFunction<Props, Result> {
  const existing = agentConfigOf(agent).middlewares ?? [];
  return agent.fork({ middlewares: [...existing, ...middlewares] });
}
