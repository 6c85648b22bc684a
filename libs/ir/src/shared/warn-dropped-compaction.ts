import type { Message } from '../types/message.js';
import type { WarningSink } from './warning-sink.js';

/**
 * For a target other than Anthropic: reports each message's `_anthropic_compaction` summary as
 * an `anthropic-compaction-dropped` warning (it is not sent). Dropping is safe: Anthropic wrote
 * the summary in place of turns the IR still holds, and only Anthropic can read the block.
 */
export function warnDroppedCompaction(messages: readonly Message[], sink: WarningSink): void {
  messages.forEach((message, index) => {
    if (message._anthropic_compaction === undefined) return;
    sink.warn(
      'anthropic-compaction-dropped',
      'an Anthropic server-side compaction summary is sent only to Anthropic; the earlier messages it summarised are sent as they are',
      index,
    );
  });
}
