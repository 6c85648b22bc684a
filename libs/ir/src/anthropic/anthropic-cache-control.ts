import type { WarningSink } from '../shared/warning-sink.js';
import type { AnthropicContentBlock, AnthropicTextBlock } from './anthropic-wire.js';

/** The most `cache_control` breakpoints one Messages API request may carry. */
export const MAX_CACHE_BREAKPOINTS = 4;

const EPHEMERAL = { type: 'ephemeral' } as const;

/**
 * Marks the last block of one message's blocks that can carry `cache_control`
 * (not a thinking block), so the cached prefix ends with that message. Mutates `blocks`.
 */
export function markCacheBreakpoint(blocks: AnthropicContentBlock[]): void {
  for (let index = blocks.length - 1; index >= 0; index--) {
    const block = blocks[index]!;
    if (block.type === 'thinking' || block.type === 'redacted_thinking') continue;
    block.cache_control = { ...EPHEMERAL };
    return;
  }
}

/**
 * Keeps only the last {@link MAX_CACHE_BREAKPOINTS} breakpoints (they cover the longest
 * prefixes); the API rejects a request with more. Reports `cache-breakpoints-limited`.
 * Mutates the blocks.
 */
export function limitCacheBreakpoints(
  system: AnthropicTextBlock[],
  messageBlocks: AnthropicContentBlock[],
  sink: WarningSink,
): void {
  const marked = [...system, ...messageBlocks].filter(
    (block) => 'cache_control' in block && block.cache_control,
  );
  const excess = marked.length - MAX_CACHE_BREAKPOINTS;
  if (excess <= 0) return;
  for (const block of marked.slice(0, excess)) {
    if ('cache_control' in block) delete block.cache_control;
  }
  sink.warn(
    'cache-breakpoints-limited',
    `${marked.length} cache breakpoints but the API takes ${MAX_CACHE_BREAKPOINTS}; the first ${excess} were removed`,
  );
}
