import { defineTool } from '@flotilla/runtime';
import { z } from 'zod';
import { searchResearchNotes } from './research-notes.js';

/** The tool's name, as the model sees it. */
export const SEARCH_NOTES_TOOL = 'search_notes';

/** `search_notes({ query, limit? })`: the best matching notes as `{ id, title, text }[]`. */
export const searchNotesTool = defineTool({
  name: SEARCH_NOTES_TOOL,
  description: 'Searches the team notes and returns the best matches with their ids.',
  parameters: z.object({
    query: z.string().min(1).describe('Words to look for'),
    limit: z.number().int().min(1).max(5).default(2).describe('How many notes to return'),
  }),
  handler: ({ query, limit }) => searchResearchNotes(query, limit),
});
