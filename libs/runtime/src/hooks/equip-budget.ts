import type { BudgetOptions } from '../usage/budget-options.js';
import { resolveBudget } from '../usage/budget-options.js';
import { requireOpenDraft } from './require-draft.js';

/**
 * Watches and limits usage, as in the seed plus fleet-wide limits. Per generation, before the
 * policy (call it again after `reborn()`); several calls add up: every `onUpdate` runs, the
 * smallest limit wins.
 *
 * - `onUpdate({ delta, aggregate, own })` runs after each usage record of this agent or a
 *   descendant (a live model call, `recordToolUsage`, a finished child run), child-first, in
 *   registration order, with deep copies, inside this agent's context. A callback that throws
 *   fails the model call path (throw `BudgetExceededError` for a custom guard).
 * - `maxTokens` / `maxCostMicroUsd` cap the spend of the WHOLE run tree (the root run and every
 *   descendant, on any worker), counted fleet-wide in Redis. Before each live model call of this
 *   agent or a descendant, the tree's spend plus the call's prompt estimate is compared with the
 *   smallest limit on the chain: over it, the call is not made and `BudgetExceededError` ends the
 *   run (no retry).
 * - `prices` price calls in integer micro-USD per million tokens, keyed `'<provider>/<modelId>'`
 *   or `'<modelId>'`; descendants (child runs too) inherit the table, the nearest entry wins, and
 *   an entry wins over the adapter's `calculateCost`.
 * @throws InvalidBudgetError naming a bad option
 * @throws ContextNotFoundError outside an agent run; AfterPromptAgentError after the policy started
 * @example
 * equipBudget({
 *   maxCostMicroUsd: 2_000_000, // $2 for the whole tree
 *   prices: { 'openai/gpt-4.1-mini': { inputMicroUsdPerMillionTokens: 400_000, outputMicroUsdPerMillionTokens: 1_600_000 } },
 *   onUpdate: ({ aggregate }) => console.log(aggregate.costs.micro_usd),
 * });
 */
export function equipBudget(options: BudgetOptions): void {
  const context = requireOpenDraft('equipBudget');
  context.draft.budgets.push(resolveBudget(options));
}
