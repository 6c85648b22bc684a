import { IRValidationError } from '../errors.js';
import { describeValue } from '../validation/describe-value.js';
import { inputPath } from '../validation/input-path.js';

/**
 * Tool results, as {@link compact} spells them. `'tool-result'` is ContextChef's spelling,
 * accepted as an alias so code written for it works unchanged.
 */
export type ToolResultsTarget = 'tool-results' | 'tool-result';

/**
 * What {@link compact} clears:
 * - `'thinking'`: `thinking` and `redacted_thinking` on assistant messages (content is kept);
 * - `'tool-results'` (alias `'tool-result'`): the content (and attachments) of every tool message;
 * - `{ target: 'tool-results', keepRecent }`: every tool message except the last `keepRecent`
 *   (floored to a whole number, at least 1, as the reference behaviour does).
 */
export type CompactTarget =
  | 'thinking'
  | ToolResultsTarget
  | { target: ToolResultsTarget; keepRecent: number };

/** The `clear` list of {@link compact}, reduced to what it asks for. */
export interface CompactPlan {
  clearThinking: boolean;
  /** How many trailing tool results survive: `Infinity` when tool results are not cleared. */
  keepToolResults: number;
}

const TOOL_RESULTS: readonly string[] = ['tool-results', 'tool-result'];
const ACCEPTED =
  "'thinking', 'tool-results' (or 'tool-result'), or { target: 'tool-results', keepRecent: <number> }";

/**
 * Checks `compact`'s `clear` option and reduces it to a {@link CompactPlan}. It comes from
 * callers' code or configuration, where a misspelt target would otherwise clear nothing.
 * @throws {IRValidationError} naming the entry (`clear[1]`) and listing what is accepted.
 */
export function readCompactTargets(clear: unknown): CompactPlan {
  if (!Array.isArray(clear)) throw invalid('clear', `expected a list of ${ACCEPTED}`, clear);
  const plan: CompactPlan = { clearThinking: false, keepToolResults: Number.POSITIVE_INFINITY };
  clear.forEach((target: unknown, index) => {
    const path = inputPath('clear', index);
    if (target === 'thinking') plan.clearThinking = true;
    else if (typeof target === 'string' && TOOL_RESULTS.includes(target)) plan.keepToolResults = 0;
    else if (isKeepRecentTarget(target)) {
      const keep = Math.max(1, Math.floor(readKeepRecent(target.keepRecent, path)));
      plan.keepToolResults = Math.min(plan.keepToolResults, keep);
    } else throw invalid(path, `expected ${ACCEPTED}`, target);
  });
  return plan;
}

function isKeepRecentTarget(value: unknown): value is { target: string; keepRecent: unknown } {
  if (typeof value !== 'object' || value === null) return false;
  const target = (value as { target?: unknown }).target;
  return typeof target === 'string' && TOOL_RESULTS.includes(target);
}

function readKeepRecent(value: unknown, path: string): number {
  if (typeof value === 'number' && !Number.isNaN(value)) return value;
  throw invalid(inputPath(path, 'keepRecent'), 'expected a number of tool results to keep', value);
}

function invalid(path: string, expected: string, value: unknown): IRValidationError {
  const shown = typeof value === 'string' ? JSON.stringify(value) : describeValue(value);
  return new IRValidationError(path, `${expected}, got ${shown}`);
}
