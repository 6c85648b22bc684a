/**
 * The little knowledge base the research agent searches: a few notes about how Flotilla works,
 * kept in memory so the example needs no database.
 */

/** One note the `search_notes` tool can return. */
export interface ResearchNote {
  id: string;
  title: string;
  text: string;
}

/** Every note, in a fixed order (search results are deterministic). */
export const RESEARCH_NOTES: readonly ResearchNote[] = [
  {
    id: 'durable-replay',
    title: 'Durable replay',
    text: 'Every model turn and tool execution is recorded in the run journal; after a crash another worker replays the run and recorded steps return their results instead of running again.',
  },
  {
    id: 'stalled-jobs',
    title: 'Stalled jobs',
    text: 'A worker that dies leaves its job locked until the lock expires; BullMQ then hands the stalled job to another worker.',
  },
  {
    id: 'conversation-store',
    title: 'Conversation store',
    text: 'Conversations are stored as provider-neutral IR after every turn, append-only and compare-and-set, so any worker can resume them.',
  },
  {
    id: 'child-agents',
    title: 'Child agents',
    text: 'An agent calls another agent like a function; inside a run the child is a durable step of the parent, with its own journal positions.',
  },
];

/** Words too common to say what a question is about. */
const STOP_WORDS = new Set([
  'the',
  'and',
  'how',
  'what',
  'does',
  'for',
  'with',
  'are',
  'why',
  'when',
  'about',
  'can',
]);

/**
 * The notes that contain the most distinct words of `query` (case-insensitive, common words
 * ignored), best first, at most `limit`; notes sharing no word are left out.
 */
export function searchResearchNotes(query: string, limit = 2): ResearchNote[] {
  const queryWords = [...new Set(wordsOf(query))].filter((word) => !STOP_WORDS.has(word));
  const score = (note: ResearchNote): number => {
    const noteWords = new Set(wordsOf(`${note.title} ${note.text}`));
    return queryWords.filter((word) => noteWords.has(word)).length;
  };
  return RESEARCH_NOTES.map((note) => ({ note, score: score(note) }))
    .filter((scored) => scored.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map((scored) => scored.note);
}

function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[a-z]{3,}/g) ?? [];
}
