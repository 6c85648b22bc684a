/**
 * The implicit agent context. Hooks find the running agent through the process-wide async
 * frame (`async-frame.ts`: one `AsyncLocalStorage`, shared by two copies of this package loaded
 * in one process).
 */
import { ContextNotFoundError } from '../errors/agent-errors.js';
import type { AgentContext } from './agent-context.js';
import { frameSlot } from './async-frame.js';

const agentSlot = frameSlot<AgentContext>('agent');

/** The agent context of the caller, or `undefined` outside any agent run. */
export function currentAgentContext(): AgentContext | undefined {
  return agentSlot.get();
}

/**
 * The agent context of the caller.
 * @throws ContextNotFoundError naming `apiName` when called outside an agent run.
 */
export function requireAgentContext(apiName: string): AgentContext {
  const context = currentAgentContext();
  if (!context) throw new ContextNotFoundError(apiName);
  return context;
}

/** Runs `fn` with `context` as the implicit agent context of everything it awaits. */
export function runInAgentContext<T>(context: AgentContext, fn: () => T): T {
  return agentSlot.run(context, fn);
}
