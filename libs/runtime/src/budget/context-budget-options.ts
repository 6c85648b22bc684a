/**
 * The options of `equipContextBudget`, checked once and resolved into a complete config
 * (defaults filled in), so nothing past the hook meets `undefined`.
 */
import { type CompactTarget, IRValidationError, readCompactTargets } from '@flotilla/ir';
import { InvalidContextBudgetError } from '../errors/budget-errors.js';
import type { ModelAdapter } from '../model/model-adapter.js';

/** Options of `equipContextBudget`. */
export interface ContextBudgetOptions {
  /** The most prompt tokens a model turn may send (system, tools and history included). */
  maxPromptTokens: number;
  /**
   * How many of the latest turns of the history stay verbatim when older ones are summarised
   * (a turn = an assistant message with its tool results, or any other single message; the
   * message being answered always stays). @default 4
   */
  keepRecentTurns?: number;
  /** The model that writes summaries: an adapter, or a model id the worker knows. @default the agent's model */
  summarizeWith?: ModelAdapter | string;
  /**
   * The cheap steps tried before a summary, on every turn the prompt is over budget (on what
   * is sent; the stored conversation is not changed by them): `'thinking'`, `'tool-results'`,
   * `{ target: 'tool-results', keepRecent }` as in `compact()` of `@flotilla/ir`. They touch
   * only messages older than the last `keepRecentTurns` turns. @default [] (none)
   */
  clear?: CompactTarget[];
  /**
   * A tool result longer than this many characters is stored as a content-addressed blob when
   * it enters the conversation and replaced by its head and tail plus a marker; the agent gets
   * the `read_offloaded_output({ id, offset, length })` tool to page through it. @default off
   */
  offloadToolResultsOver?: number;
}

/** {@link ContextBudgetOptions} with every default filled in. */
export interface ResolvedContextBudget {
  maxPromptTokens: number;
  keepRecentTurns: number;
  /** `undefined`: the agent's model. */
  summarizeWith: ModelAdapter | undefined;
  clear: CompactTarget[];
  offloadToolResultsOver: number | undefined;
}

/** @default of {@link ContextBudgetOptions.keepRecentTurns}. */
export const DEFAULT_KEEP_RECENT_TURNS = 4;
/** Bounds of the numeric options. */
const MAX_PROMPT_TOKENS = 100_000_000;
const MAX_KEEP_RECENT_TURNS = 10_000;
const MIN_OFFLOAD_CHARACTERS = 100;

/**
 * Checks `options` and fills in defaults; a model id is resolved with `models`.
 * @throws InvalidContextBudgetError naming the option that is wrong and what is accepted
 */
export function resolveContextBudget(
  options: unknown,
  models: ReadonlyMap<string, ModelAdapter>,
): ResolvedContextBudget {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidContextBudgetError('options', 'must be an object such as { maxPromptTokens: 8000 }');
  }
  const given = options as Record<string, unknown>;
  return {
    maxPromptTokens: integer(given.maxPromptTokens, 'maxPromptTokens', 1, MAX_PROMPT_TOKENS, undefined),
    keepRecentTurns: integer(
      given.keepRecentTurns,
      'keepRecentTurns',
      0,
      MAX_KEEP_RECENT_TURNS,
      DEFAULT_KEEP_RECENT_TURNS,
    ),
    summarizeWith: summarizer(given.summarizeWith, models),
    clear: clearTargets(given.clear),
    offloadToolResultsOver:
      given.offloadToolResultsOver === undefined
        ? undefined
        : integer(
            given.offloadToolResultsOver,
            'offloadToolResultsOver',
            MIN_OFFLOAD_CHARACTERS,
            2 ** 31,
            undefined,
          ),
  };
}

function integer(
  value: unknown,
  option: string,
  min: number,
  max: number,
  fallback: number | undefined,
): number {
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return value;
  throw new InvalidContextBudgetError(
    option,
    `must be a whole number from ${min} to ${max}, got ${String(value)}`,
  );
}

function summarizer(value: unknown, models: ReadonlyMap<string, ModelAdapter>): ModelAdapter | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') {
    const model = models.get(value);
    if (model) return model;
    const known = [...models.keys()].map((id) => `"${id}"`).join(', ') || 'none';
    throw new InvalidContextBudgetError(
      'summarizeWith',
      `names model "${value}", which this worker does not know (known: ${known})`,
    );
  }
  if (typeof value === 'object' && value !== null && typeof (value as ModelAdapter).generate === 'function') {
    return value as ModelAdapter;
  }
  throw new InvalidContextBudgetError('summarizeWith', 'must be a model adapter or a model id');
}

function clearTargets(value: unknown): CompactTarget[] {
  if (value === undefined) return [];
  try {
    readCompactTargets(value);
  } catch (error) {
    if (IRValidationError.is(error))
      throw new InvalidContextBudgetError(error.path, `is invalid: ${error.message}`);
    throw error;
  }
  return value as CompactTarget[];
}
