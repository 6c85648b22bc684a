/**
 * The guard of every draft hook (`equipSystem`, `equipTool` …): inside an agent run, and
 * before the generation's policy.
 */
import type { AgentContext } from '../context/agent-context.js';
import { requireAgentContext } from '../context/context-store.js';
import { AfterPromptAgentError } from '../errors/agent-errors.js';

/**
 * The caller's agent context, when its draft is still open.
 * @throws ContextNotFoundError outside an agent run
 * @throws AfterPromptAgentError after the generation's policy started
 */
export function requireOpenDraft(apiName: string): AgentContext {
  const context = requireAgentContext(apiName);
  if (context.draft.prompted) throw new AfterPromptAgentError(apiName);
  return context;
}
