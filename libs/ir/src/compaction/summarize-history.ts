import type { Message } from '../types/message.js';
import type { Turn } from './group-into-turns.js';
import { withMediaPlaceholders } from './media-placeholders.js';
import { selectSummarisedTurns } from './select-summarised-turns.js';
import { readStubThreshold, stubLongToolResults } from './stub-long-tool-results.js';
import { cleanSummaryText, continuationText } from './summary-text.js';

/** What a {@link Summarizer} is asked to do. */
export interface SummarizeRequest {
  /**
   * The messages to summarise, as IR in conversation order (tool calls with their results).
   * It may start with any role: a summariser that calls a model should compile it with a
   * target adapter and send `instructions` as a final user message.
   */
  messages: Message[];
  /** What to write; ask the model for exactly this. */
  instructions: string;
}

/** Turns a slice of conversation into a summary text. Model-agnostic: any async function. */
export type Summarizer = (request: SummarizeRequest) => Promise<string>;

/** Options of {@link summarizeHistory}. */
export interface SummarizeHistoryOptions {
  summarize: Summarizer;
  /**
   * How many of the most recent turns stay verbatim (floored; negative counts as 0). A turn is
   * an assistant message with its tool results, or any other single message; system messages
   * are not counted. `0` summarises everything that is not pinned.
   * @default 1
   */
  keepRecentTurns?: number;
  /** Appended to the default instructions under an "Additional instructions:" heading. */
  additionalInstructions?: string;
  /**
   * How attachments reach the summariser: `'attach'` passes them as they are (so a multimodal
   * model can look at them and describe them); `'placeholder'` replaces them with
   * `[image: name]` / `[document: name]` / `[attachment]` text, for text-only summarisers.
   * @default 'attach'
   */
  media?: 'attach' | 'placeholder';
  /**
   * Tool results longer than this many characters reach the summariser as
   * `[Tool <name> returned <N> chars; omitted before summarization]` instead of their text
   * (`0` stubs every non-empty one). The history keeps them whole: only what the summariser
   * reads is shortened. Absent: tool results are sent whole.
   */
  toolResultStubThreshold?: number;
}

/** What {@link summarizeHistory} produced. */
export interface SummarizeHistoryResult {
  /** The compacted history; the input array itself when nothing was summarised. */
  history: Message[];
  /** The messages the summary replaced, in order (empty when nothing changed). */
  replaced: Message[];
  /** The inserted summary message, or `undefined` when nothing changed. */
  summary: Message | undefined;
}

/** Marker on the user message that holds a summary, so later code can recognise it. */
export const SUMMARY_MARKER = '_compaction_summary';

/** The instructions sent to the summariser (before any additional ones). */
export const SUMMARY_INSTRUCTIONS = [
  'Summarise the conversation above so that it can be continued without it.',
  'Keep: the user requests and goals, decisions taken and why, facts learnt, names, identifiers,',
  'file paths, URLs and numbers that may be needed again, tools called and what they returned',
  'when it matters, errors met and how they were handled, and the work still open.',
  'Images, documents and other attachments will not be available any more: describe each one',
  'in words (what it shows or contains, and anything read from it) where it appears.',
  'You may reason first inside <analysis></analysis>; then write the summary itself inside',
  '<summary></summary>. Only the summary is kept.',
].join('\n');

/**
 * Durable, model-assisted compaction: replaces the older turns of a history with one summary.
 *
 * - Splits only on turn boundaries (an assistant's tool calls and their results move together).
 * - The last `keepRecentTurns` turns, every system message and every turn holding a pinned
 *   message (`pinned: true`) stay verbatim and in place; everything else before the kept turns
 *   is summarised.
 * - The summary is a `role: 'user'` message (marked `_compaction_summary: true`) that takes the
 *   place of the first summarised message, so pinned and system messages keep their order
 *   relative to it.
 * - Nothing to summarise, or a blank summary, returns the input array itself and calls the
 *   summariser at most once (never when there is nothing to summarise).
 *
 * Pure apart from `summarize`; the input is never mutated.
 * @throws {IRValidationError} when `toolResultStubThreshold` is not a number from 0.
 * @throws whatever `summarize` throws (the history is then left as it was).
 */
export async function summarizeHistory(
  history: readonly Message[],
  options: SummarizeHistoryOptions,
): Promise<SummarizeHistoryResult> {
  const unchanged: SummarizeHistoryResult = {
    history: history as Message[],
    replaced: [],
    summary: undefined,
  };
  const stubThreshold = readStubThreshold(options.toolResultStubThreshold);
  const { turns, summarised } = selectSummarisedTurns(history, options.keepRecentTurns);
  if (summarised.length === 0) return unchanged;

  const replaced = summarised.flatMap((turn) => turn.messages);
  const stubbed = stubThreshold === undefined ? [...replaced] : stubLongToolResults(replaced, stubThreshold);
  const messages = options.media === 'placeholder' ? stubbed.map(withMediaPlaceholders) : stubbed;
  const text = cleanSummaryText(
    await options.summarize({ messages, instructions: instructionsFor(options.additionalInstructions) }),
  );
  if (text === '') return unchanged;

  const summary: Message = { role: 'user', content: continuationText(text), [SUMMARY_MARKER]: true };
  return { history: replaceTurns(turns, new Set(summarised), summary), replaced, summary };
}

function instructionsFor(additional: string | undefined): string {
  const extra = additional?.trim();
  return extra ? `${SUMMARY_INSTRUCTIONS}\n\nAdditional instructions:\n${extra}` : SUMMARY_INSTRUCTIONS;
}

/** Rebuilds the history with the summarised turns removed and the summary at the first one. */
function replaceTurns(turns: readonly Turn[], summarised: ReadonlySet<Turn>, summary: Message): Message[] {
  const result: Message[] = [];
  let summaryPlaced = false;
  for (const turn of turns) {
    if (!summarised.has(turn)) result.push(...turn.messages);
    else if (!summaryPlaced) {
      result.push(summary);
      summaryPlaced = true;
    }
  }
  return result;
}
