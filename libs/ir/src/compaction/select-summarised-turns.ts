import type { Message } from '../types/message.js';
import { groupIntoTurns, type Turn } from './group-into-turns.js';

/** A history cut into turns, and which of them a summary replaces. */
export interface TurnSelection {
  turns: Turn[];
  /** The turns to summarise, in order: older than the kept ones, not system, not pinned. */
  summarised: Turn[];
}

/**
 * Chooses what `summarizeHistory` summarises: every turn before the last `keepRecentTurns`
 * non-system turns (floored; negative counts as 0; absent or NaN means 1), except system
 * messages and turns holding a `pinned: true` message.
 */
export function selectSummarisedTurns(
  history: readonly Message[],
  keepRecentTurns: number | undefined,
): TurnSelection {
  const turns = groupIntoTurns(history);
  const keptFrom = firstKeptTurn(turns, keepCount(keepRecentTurns));
  return { turns, summarised: turns.slice(0, keptFrom).filter(isSummarisable) };
}

function keepCount(keepRecentTurns: number | undefined): number {
  if (keepRecentTurns === undefined || Number.isNaN(keepRecentTurns)) return 1;
  return Math.max(0, Math.floor(keepRecentTurns));
}

/** Index of the first turn that stays because it is one of the last `keep` non-system turns. */
function firstKeptTurn(turns: readonly Turn[], keep: number): number {
  let remaining = keep;
  let index = turns.length;
  while (remaining > 0 && index > 0) {
    index -= 1;
    if (turns[index]?.messages[0]?.role !== 'system') remaining -= 1;
  }
  return index;
}

function isSummarisable(turn: Turn): boolean {
  return turn.messages[0]?.role !== 'system' && !turn.messages.some((message) => message.pinned === true);
}
