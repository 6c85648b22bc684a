import type { ContextBudgetOptions } from '../budget/context-budget-options.js';
import { resolveContextBudget } from '../budget/context-budget-options.js';
import { READ_OFFLOADED_OUTPUT } from '../budget/offload-tool-results.js';
import { readOffloadedOutputTool } from '../budget/read-offloaded-output-tool.js';
import { outputsOf } from '../context/outputs-of.js';
import { equippedTool } from './equip-tool.js';
import { requireOpenDraft } from './require-draft.js';

/**
 * Keeps this generation's `promptChat` / `promptAgent` prompts under `maxPromptTokens`, and
 * the stored conversation it runs on with them. Before each model turn whose prompt would be
 * over budget (counted by the model adapter's `countTokens`, else an estimate; the provider's
 * reported prompt tokens of the previous turn win when larger): first the `clear` steps, then a
 * summary of the older turns (turn-safe; system and pinned messages and the last
 * `keepRecentTurns` turns kept) by `summarizeWith`, journaled, and on a stored conversation
 * written as a new base version. Tool results over `offloadToolResultsOver` characters are
 * offloaded as they arrive, and the `read_offloaded_output` tool is equipped to read them.
 * Calling it again in the same generation replaces the budget.
 * @throws InvalidContextBudgetError naming a bad option
 * @throws ContextNotFoundError outside an agent run; AfterPromptAgentError after the policy started
 * @example
 * equipContextBudget({ maxPromptTokens: 8000, keepRecentTurns: 6, offloadToolResultsOver: 4000 });
 * const { data } = await promptChat({ message });
 */
export function equipContextBudget(options: ContextBudgetOptions): void {
  const context = requireOpenDraft('equipContextBudget');
  const budget = resolveContextBudget(options, context.run.services.models);
  context.draft.contextBudget = budget;
  if (budget.offloadToolResultsOver !== undefined && !context.draft.tools.has(READ_OFFLOADED_OUTPUT)) {
    const tool = readOffloadedOutputTool(outputsOf(context.run.services));
    context.draft.tools.set(READ_OFFLOADED_OUTPUT, equippedTool(tool, []));
  }
}
