import type { Message } from '../types/message.js';
import { selectSummarisedTurns } from './select-summarised-turns.js';
import { type SummarizeHistoryOptions, summarizeHistory } from './summarize-history.js';

/** Options of {@link planCompaction}. */
export interface PlanCompactionOptions {
  /** As {@link SummarizeHistoryOptions.keepRecentTurns}. @default 1 */
  keepRecentTurns?: number;
}

/** What {@link planCompaction} found. */
export interface CompactionPlan {
  /** The system messages, in order (never summarised). */
  system: Message[];
  /** The messages {@link summarizeHistory} would hand the summariser, in order. */
  toSummarize: Message[];
  /** Every other non-system message, in order: the recent turns and the pinned ones. */
  toKeep: Message[];
}

/**
 * ContextChef's `planCompaction`, for code moving from it: what {@link summarizeHistory} with the
 * same `keepRecentTurns` would summarise and keep, without calling a model. Splits on turns
 * ({@link groupIntoTurns}), so a tool call and its results land on the same side.
 *
 * Differences from ContextChef: the history is not sanitised first (call
 * {@link ensureValidHistory} yourself), and pinned turns are kept (`toKeep`), wherever they are.
 * Pure; the messages are shared, not copied.
 */
export function planCompaction(
  history: readonly Message[],
  options: PlanCompactionOptions = {},
): CompactionPlan {
  const { turns, summarised } = selectSummarisedTurns(history, options.keepRecentTurns);
  const chosen = new Set(summarised);
  const plan: CompactionPlan = { system: [], toSummarize: [], toKeep: [] };
  for (const turn of turns) {
    if (chosen.has(turn)) plan.toSummarize.push(...turn.messages);
    else if (turn.messages[0]?.role === 'system') plan.system.push(...turn.messages);
    else plan.toKeep.push(...turn.messages);
  }
  return plan;
}

/**
 * ContextChef's `compactHistory`, for code moving from it: the history of
 * {@link summarizeHistory}, which does the work. Returns the input array itself when nothing was
 * summarised or the summary was blank (an empty history never reaches the summariser), so a store
 * can skip the write.
 *
 * Differences from ContextChef: it takes {@link summarizeHistory}'s options (a `summarize`
 * function receiving `{ messages, instructions }` as IR) instead of a model callback and option
 * list, and system and pinned messages stay where they were instead of moving to the front.
 * @throws as {@link summarizeHistory}.
 */
export async function compactHistory(
  history: readonly Message[],
  options: SummarizeHistoryOptions,
): Promise<Message[]> {
  return (await summarizeHistory(history, options)).history;
}
