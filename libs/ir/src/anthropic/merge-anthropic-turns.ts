import type { AnthropicContentBlock, AnthropicMessageParam } from './anthropic-wire.js';

/** A message whose content is always an array of blocks, as the Anthropic target builds them. */
export interface AnthropicTurn extends AnthropicMessageParam {
  content: AnthropicContentBlock[];
}

/**
 * Merges consecutive messages of the same role into one, blocks kept in order. The Messages
 * API wants user and assistant turns to alternate; the IR has one message per tool result and
 * may hold adjacent user messages (a positional system note, media after a tool result …).
 * Returns new turn objects; the input is not mutated.
 */
export function mergeAnthropicTurns(turns: AnthropicTurn[]): AnthropicTurn[] {
  const merged: AnthropicTurn[] = [];
  for (const turn of turns) {
    const previous = merged.at(-1);
    if (previous && previous.role === turn.role) previous.content.push(...turn.content);
    else merged.push({ role: turn.role, content: [...turn.content] });
  }
  return merged;
}
