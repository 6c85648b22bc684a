import type { GeminiContent, GeminiPart } from './gemini-wire.js';

/** A content the Gemini target built, with what it holds. */
export interface GeminiBuiltContent {
  role: 'user' | 'model';
  parts: GeminiPart[];
  /** Function responses stay one content of their own (see {@link mergeGeminiContents}). */
  holdsFunctionResponses?: boolean;
}

/**
 * Merges consecutive contents of the same role into one, parts in order (adjacent user texts,
 * adjacent model turns). A content of function responses is never merged with another
 * content: Gemini wants all responses to a turn's calls in one content right after it, and the
 * media of those results follow as a separate user content (two client turns in a row, which
 * Gemini accepts). Returns new objects; the input is not mutated.
 */
export function mergeGeminiContents(contents: GeminiBuiltContent[]): GeminiContent[] {
  const merged: GeminiBuiltContent[] = [];
  for (const content of contents) {
    const previous = merged.at(-1);
    const mergeable =
      previous &&
      previous.role === content.role &&
      !previous.holdsFunctionResponses &&
      !content.holdsFunctionResponses;
    if (mergeable) previous.parts.push(...content.parts);
    else merged.push({ ...content, parts: [...content.parts] });
  }
  return merged.map(({ role, parts }) => ({ role, parts }));
}
