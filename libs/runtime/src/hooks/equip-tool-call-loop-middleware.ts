import type { ToolCallLoopMiddleware } from '../tools/tool-call-loop-middleware.js';
import { requireOpenDraft } from './require-draft.js';

/**
 * Adds a middleware around every tool batch of this generation's policy loop (earlier
 * registration = outer).
 * @throws ContextNotFoundError outside an agent run; AfterPromptAgentError after the policy started
 */
export function equipToolCallLoopMiddleware(middleware: ToolCallLoopMiddleware): void {
  requireOpenDraft('equipToolCallLoopMiddleware').draft.loopMiddlewares.push(middleware);
}
