import { requireOpenDraft } from './require-draft.js';

/**
 * Adds a system prompt for this generation; each call becomes its own system message, in order.
 * @throws ContextNotFoundError outside an agent run; AfterPromptAgentError after the policy started
 */
export function equipSystem(text: string): void {
  requireOpenDraft('equipSystem').draft.system.push({ role: 'system', content: text });
}
